/**
 * The business page's head (client/routes/$slug.tsx, loader then head, as the server render runs
 * them): the description a business typed over several lines, with bidirectional and format
 * controls, reaches `<meta name="description">` and `og:description` as one clean line
 * (docs/decisions/0077), and the title and og:title as one line too.
 */
import { describe, expect, it } from 'vitest';
import { Route } from '../../client/routes/$slug';
import { businessProfiles } from '../../server/db/schema/index';
import { createBusiness, callerFor } from '../factories/index';
import { useTestDeps } from '../setup/test-database';

const t = useTestDeps(new Date('2026-11-21T10:00:00Z'));

type Meta = { title?: string; name?: string; property?: string; content?: string };

describe("the business page's head", () => {
  it('flattens the description and title in the description, og:description, title and og:title metas', async () => {
    const { profile } = await createBusiness(t.deps.db);
    // Stored as typed (the description is multi-line; a name from before the input rules).
    await t.deps.db.update(businessProfiles).set({
      businessName: 'Cuts \u2066& Co',
      description: 'Cuts and colour.\r\n\r\nWalk-ins\u2028welcome\u2029\u202Etoday\u202C \u200Bonly\n',
    });
    const caller = await callerFor(t.deps, null);
    const trpcUtils = {
      businesses: { bySlug: { ensureData: (input: { slug: string }) => caller.businesses.bySlug(input) } },
      favourites: { status: { ensureData: async () => undefined } },
    };
    const options = Route.options as unknown as {
      loader: (ctx: unknown) => Promise<unknown>;
      head: (ctx: unknown) => { meta?: Meta[] };
    };
    const loaderData = await options.loader({
      context: { trpcUtils, origin: 'https://lastslot.test' },
      params: { slug: profile.slug },
    });
    const meta = options.head({ loaderData, match: { status: 'success' } }).meta ?? [];
    const content = (key: string) => meta.find((m) => m.name === key || m.property === key)?.content;
    expect({
      title: meta.find((m) => m.title)?.title,
      'og:title': content('og:title'),
      description: content('description'),
      'og:description': content('og:description'),
    }).toEqual({
      title: 'Cuts & Co | LastSlot',
      'og:title': 'Cuts & Co | LastSlot',
      description: 'Cuts and colour. Walk-ins welcome today only',
      'og:description': 'Cuts and colour. Walk-ins welcome today only',
    });
  });
});
