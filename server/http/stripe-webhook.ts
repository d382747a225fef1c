/**
 * Stripe's side of billing (docs/decisions/0100, 0101): POST /webhooks/stripe, whose JSON body is kept as
 * raw bytes (in this scope only) for the signature check; and with BILLING=test, the stand-in's pages
 * under /dev/stripe: "Test checkout" (Pay, Cancel) and the test billing portal (Cancel), never in
 * production (the setting is refused there).
 */
import escapeHtml from 'escape-html';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PRICES } from '../../shared/pricing';
import type { StripeStandIn } from '../features/billing/stripe-stand-in';
import { receiveStripeWebhook } from '../features/billing/webhooks.service';
import type { AppDeps } from '../trpc/context';

const NOT_FOUND = { error: 'Not Found' };

/** Registers the webhook and, with the stand-in, its pages; `deps` as for tRPC. */
export async function stripeRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }): Promise<void> {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) =>
    done(null, body),
  );
  // The stand-in's forms say nothing the URL does not: left unread.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_r, _b, done) => done(null, null),
  );

  app.post('/webhooks/stripe', async (req, reply) => {
    const signature = req.headers['stripe-signature'];
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const answer = await receiveStripeWebhook(deps, body, typeof signature === 'string' ? signature : undefined);
    return reply.code(answer.status).header('cache-control', 'no-store').send(answer.body);
  });

  const standIn = deps.billing?.mode === 'test' && !deps.isProduction ? deps.billing.standIn : undefined;
  if (standIn) standInPages(app, standIn, deps.billing!.prices);
}

function page(reply: FastifyReply, title: string, body: string) {
  return reply
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}` +
        `<p><small>This is LastSlot's local stand-in for Stripe (BILLING=test). No card is charged.</small></p></main></body></html>`,
    );
}

const button = (action: string, label: string) =>
  `<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(label)}</button></form>`;

/** The pages a customer sees on Stripe, for the stand-in's sessions. */
function standInPages(app: FastifyInstance, standIn: StripeStandIn, prices: Record<keyof typeof PRICES, string>) {
  const label = (priceId: string) =>
    priceId === prices.earlyAdopter ? PRICES.earlyAdopter.label : priceId === prices.list ? PRICES.list.label : priceId;

  app.get<{ Params: { id: string } }>('/dev/stripe/checkout/:id', async (req, reply) => {
    const session = standIn.sessions.get(req.params.id);
    if (!session || session.status !== 'open') return reply.code(404).send(NOT_FOUND);
    const trial = session.trial_end
      ? `<p>Free until ${escapeHtml(new Date(session.trial_end * 1000).toUTCString())}, then charged monthly.</p>`
      : '';
    return page(
      reply,
      'Test checkout',
      `<p>LastSlot subscription: ${escapeHtml(label(session.price))} a month.</p>${trial}` +
        button(`/dev/stripe/checkout/${session.id}/pay`, 'Pay') +
        button(`/dev/stripe/checkout/${session.id}/cancel`, 'Cancel'),
    );
  });

  app.post<{ Params: { id: string } }>('/dev/stripe/checkout/:id/pay', async (req, reply) => {
    const session = standIn.sessions.get(req.params.id);
    if (!session || session.status !== 'open') return reply.code(404).send(NOT_FOUND);
    await standIn.pay(session.id);
    return reply.redirect(session.success_url, 303);
  });

  app.post<{ Params: { id: string } }>('/dev/stripe/checkout/:id/cancel', async (req, reply) => {
    const session = standIn.sessions.get(req.params.id);
    if (!session) return reply.code(404).send(NOT_FOUND);
    return reply.redirect(session.cancel_url, 303);
  });

  const subscriptionOf = (customer: string) =>
    [...standIn.subscriptions.values()].reverse().find((s) => s.customer === customer && s.status !== 'canceled');

  app.get<{ Params: { id: string } }>('/dev/stripe/portal/:id', async (req, reply) => {
    const portal = standIn.portalSessions.get(req.params.id);
    if (!portal) return reply.code(404).send(NOT_FOUND);
    const subscription = subscriptionOf(portal.customer);
    const back = `<p><a href="${escapeHtml(portal.return_url)}">Return to LastSlot</a></p>`;
    if (!subscription) return page(reply, 'Test billing portal', `<p>No current subscription.</p>${back}`);
    const ends = new Date(subscription.items.data[0]!.current_period_end * 1000).toUTCString();
    const state = subscription.cancel_at_period_end
      ? `<p>Your subscription ends on ${escapeHtml(ends)}.</p>`
      : `<p>Your subscription (${escapeHtml(label(subscription.items.data[0]!.price.id))} a month) renews on ${escapeHtml(ends)}.</p>` +
        button(`/dev/stripe/portal/${portal.id}/cancel`, 'Cancel subscription');
    return page(
      reply,
      'Test billing portal',
      state + button(`/dev/stripe/portal/${portal.id}/end-period`, 'End the current period now') + back,
    );
  });

  // Cancel: at the period's end. End the current period now: a canceling subscription ends, another renews.
  for (const [action, act] of [
    ['cancel', (id: string) => standIn.cancelAtPeriodEnd(id)],
    ['end-period', (id: string) => standIn.endPeriod(id)],
  ] as const) {
    app.post<{ Params: { id: string } }>(`/dev/stripe/portal/:id/${action}`, async (req, reply) => {
      const portal = standIn.portalSessions.get(req.params.id);
      const subscription = portal && subscriptionOf(portal.customer);
      if (!portal || !subscription) return reply.code(404).send(NOT_FOUND);
      await act(subscription.id);
      return reply.redirect(portal.return_url, 303);
    });
  }
}
