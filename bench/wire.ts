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

/**
 * How many client addresses the load comes from: request i from address i mod this, as the load
 * balancer in front of A names it in `X-Forwarded-For` (A trusts the bench as that proxy). The
 * limits count per address; from one address every counted call updated the same row, which no
 * client can do in production (its per-minute limit stops it first).
 */
export const CLIENT_ADDRESSES = 2_000;

/** The i-th client address (i from 0), in 10.0.0.0/8. */
export function clientAddress(i: number): string {
  const n = i % CLIENT_ADDRESSES;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
