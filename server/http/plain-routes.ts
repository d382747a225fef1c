/**
 * The two plain-HTTP routes outside tRPC (docs/decisions/0052, 0054), both authorised by a secret
 * token in the URL rather than a session, so calendar apps and mail providers can call them:
 * - GET /calendar/{token}.ics: a business's calendar feed (text/calendar), 404 for any other token;
 * - POST /unsubscribe/{token}: RFC 8058 one-click unsubscribe (body 'List-Unsubscribe=One-Click',
 *   form-encoded or multipart, not read); 404 for an unknown token. A browser's GET of the same
 *   URL falls through to the client's /unsubscribe/$token page.
 * The request log shows both paths with the token replaced by '[redacted]' (server/logger.ts
 * `redactUrl`; a test there fails for a new path parameter it does not hide).
 */
import type { FastifyInstance } from 'fastify';
import { calendarFeedByToken } from '../features/calendar/calendar.service';
import { unsubscribe } from '../features/notifications/notifications.service';
import { DomainError } from '../core/errors';
import type { AppDeps } from '../trpc/context';

const TOKEN = /^[a-z2-7]{32}$/;
const NOT_FOUND = { error: 'Not Found' };

/** Registers both routes; `deps` as for tRPC. */
export async function plainRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }): Promise<void> {
  // Mail providers post a form body; it says nothing the URL does not, so it is taken as text, unread.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) => done(null, null));

  app.get<{ Params: { file: string } }>('/calendar/:file', async (req, reply) => {
    const token = req.params.file.endsWith('.ics') ? req.params.file.slice(0, -4) : '';
    const ics = TOKEN.test(token) ? await calendarFeedByToken(deps, token) : null;
    if (ics === null) return reply.code(404).header('cache-control', 'no-store').send(NOT_FOUND);
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', 'inline; filename="lastslot.ics"')
      .header('cache-control', 'no-store')
      .send(ics);
  });

  app.post<{ Params: { token: string } }>('/unsubscribe/:token', async (req, reply) => {
    if (!TOKEN.test(req.params.token)) return reply.code(404).send(NOT_FOUND);
    try {
      const done = await unsubscribe(deps, req.params.token);
      return reply
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send(`Unsubscribed: ${done.label}.`);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return reply.code(404).send(NOT_FOUND);
      throw err;
    }
  });
}
