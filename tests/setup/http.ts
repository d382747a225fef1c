/**
 * HTTP test helpers: a real server on a free port (buildServer + listen) and a tRPC client that
 * keeps the session cookie and sends the app's Origin, like a browser.
 */
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import type { FastifyInstance } from 'fastify';
import superjson from 'superjson';
import { buildServer, type BuildServerOptions } from '../../server/app';
import { MAX_BATCH_SIZE } from '../../shared/transport';
import type { Database } from '../../server/db/client';
import type { AppDeps } from '../../server/trpc/context';
import type { AppRouter } from '../../server/trpc/router';
import { createTestDeps, silentLogger } from './test-database';

export interface TestServer {
  url: string;
  deps: AppDeps;
  close(): Promise<void>;
}

/** Starts the app on 127.0.0.1 with its own hub, API only; `options` as buildServer's. */
export async function startTestServer(
  database: Database,
  now: () => Date,
  options: Partial<Omit<BuildServerOptions, 'deps' | 'logger'>> = {},
): Promise<TestServer> {
  const { deps, hub } = await createTestDeps(database, now);
  const app = await buildServer({ deps, logger: silentLogger, clientDir: '/nonexistent', ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    deps,
    async close() {
      await app.close();
      await hub.stop();
    },
  };
}

/** An app over `database` with its own hub (not listening: `app.inject`); `stop` closes both. */
export interface AppInstance {
  deps: AppDeps;
  app: FastifyInstance;
  stop(): Promise<void>;
}

/**
 * Builds the app over `database` with its own started hub, as another process would have;
 * `options` as buildServer's, `events` as createTestDeps's.
 */
export async function startAppInstance(
  database: Database,
  now: () => Date,
  options: Partial<Omit<BuildServerOptions, 'deps' | 'logger'>>,
  events?: Pick<Database, 'listen' | 'notify'>,
): Promise<AppInstance> {
  const { deps, hub } = await createTestDeps(database, now, events ? { events } : {});
  const app = await buildServer({ deps, logger: silentLogger, ...options });
  return {
    deps,
    app,
    async stop() {
      await app.close();
      await hub.stop();
    },
  };
}

/**
 * A tRPC HTTP client that keeps the session cookie, like a browser would. `batch: false` sends
 * one request per call (httpLink) instead of batches; `headers` are added to every request;
 * `timeoutMs` aborts a query or mutation that has no answer by then (subscriptions are not limited).
 * `fetch` replaces the global fetch underneath (e.g. one bound to a local address); `onResponse`
 * sees every answer (subscriptions' included) with the URL it answered.
 */
export function browserClient(
  baseUrl: string,
  options: {
    batch?: boolean;
    headers?: Record<string, string>;
    timeoutMs?: number;
    fetch?: typeof fetch;
    onResponse?: (res: Response, url: string) => void;
  } = {},
) {
  const baseFetch = options.fetch ?? fetch;
  let cookie = '';
  const cookieFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (cookie) headers.set('cookie', cookie);
    headers.set('origin', baseUrl);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    const signal =
      options.timeoutMs && !headers.get('accept')?.includes('text/event-stream')
        ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(init?.signal ? [init.signal] : [])])
        : init?.signal;
    const res = await baseFetch(input, { ...init, headers, signal });
    options.onResponse?.(res, String(input instanceof Request ? input.url : input));
    const set = res.headers.getSetCookie();
    for (const c of set) {
      const [pair] = c.split(';');
      if (pair?.startsWith('lastslot_session=')) cookie = pair.endsWith('=') ? '' : pair;
    }
    return res;
  };
  const link = { url: `${baseUrl}/trpc`, transformer: superjson, fetch: cookieFetch, maxItems: MAX_BATCH_SIZE };
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: `${baseUrl}/trpc`,
          transformer: superjson,
          EventSource,
          eventSourceOptions: () => ({ fetch: cookieFetch }),
        }),
        false: options.batch === false ? httpLink(link) : httpBatchLink(link),
      }),
    ],
  });
  return { client, cookie: () => cookie, setCookie: (c: string) => (cookie = c) };
}
