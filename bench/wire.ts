/**
 * tRPC 11's HTTP wire format as the client sends it (client/lib/trpc.ts: httpBatchLink and
 * httpSubscriptionLink with the superjson transformer), so the bench's requests are byte-for-byte
 * what a browser sends.
 */
import superjson from 'superjson';

/**
 * Path and query of a batched query GET: `/trpc/a,b?batch=1&input={"0":{"json":...},...}`, each
 * input serialised with superjson (undefined inputs included, as httpBatchLink does).
 */
export function batchQueryPath(procedures: string[], inputs: unknown[] = []): string {
  const input = Object.fromEntries(procedures.map((_, i) => [String(i), superjson.serialize(inputs[i])]));
  return `/trpc/${procedures.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
}

/** Path and JSON body of a batched mutation POST (one call): `/trpc/p?batch=1`, `{"0":{"json":...}}`. */
export function batchMutation(procedure: string, input: unknown): { path: string; body: string } {
  return { path: `/trpc/${procedure}?batch=1`, body: JSON.stringify({ '0': superjson.serialize(input) }) };
}

/** Path and query of a subscription (SSE) GET as httpSubscriptionLink builds it. */
export function subscriptionPath(procedure: string, input?: unknown): string {
  return `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
}

/**
 * The public origin both targets are configured with (APP_URL) and that mutations carry as
 * `Origin`: https, as production demands, while the targets listen on plain http locally (a TLS
 * proxy would sit in between in production). The .test name never resolves.
 */
export const BENCH_APP_URL = 'https://bench.lastslot.test';

/** The `Cookie` header carrying session token `token`. */
export const sessionCookie = (token: string) => `lastslot_session=${token}`;
