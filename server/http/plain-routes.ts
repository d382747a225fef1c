/**
 * Plain-HTTP routes authorised by a secret token in the URL, not a session, so calendar apps and mail
 * providers can call them (docs/decisions/0052, 0054): GET /calendar/{token}.ics and RFC 8058's POST
 * /unsubscribe/{token}. `redactUrl` in server/logger.ts must hide any new token path.
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
  // Mail providers post a form body that says nothing the URL does not: left unread.
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
