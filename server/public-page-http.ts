/**
 * businesses.bySlug answered from the page cache without the tRPC pipeline (docs/decisions/0046):
 * a lone GET of it without a session cookie, whose input is a plain slug a business has, gets
 * the bytes and headers tRPC would send for it, memoised per cached page, with an ETag (304 for a
 * matching If-None-Match). Anything else (a session cookie, a streaming accept, another input, an
 * unknown slug, a failure) goes on to tRPC unchanged, which answers it the usual way.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, etagOf } from './client-pages';
import type { ServiceDeps } from './core/deps';
import { SESSION_COOKIE } from './features/auth/session';
import { findPublicBusiness, type PublicPage } from './features/businesses/businesses.service';
import { serializeOutput } from './trpc/transformer';

/** The path of businesses.bySlug alone (a batch of one, or not batched). */
export const PUBLIC_PAGE_CALL_PATH = '/trpc/businesses.bySlug';

/** A slug as a browser sends it that every input rule passes (trimmed and lower-cased later). */
const PLAIN_SLUG = /^[A-Za-z0-9-]{3,50}$/;
/** The URL of the client link's batch of one, `…?batch=1&input={"0":{"json":{"slug":"<slug>"}}}`, around the slug. */
const LINK_CALL_PREFIX = `${PUBLIC_PAGE_CALL_PATH}?batch=1&input=${encodeURIComponent('{"0":{"json":{"slug":"')}`;
const LINK_CALL_SUFFIX = encodeURIComponent('"}}}');
const SESSION_COOKIE_PAIR = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

interface Answer {
  /** A Buffer, so Fastify sends it with tRPC's exact content-type (no charset appended). */
  body: Buffer;
  etag: string;
}

/** Per cached page object (the cache answers the same object until it changes): its answers. */
const answers = new WeakMap<PublicPage, { batch?: Answer; single?: Answer }>();

/**
 * The slug a lone businesses.bySlug GET asks for, when its input is a plain slug:
 * `?batch=1&input={"0":{"json":{"slug":…}}}` (httpBatchLink's batch of one) or
 * `?input={"json":{"slug":…}}`. Null for anything else.
 */
export function lonePublicPageCall(url: string): { slug: string; batch: boolean } | null {
  // The client link's exact bytes (a plain slug needs no escaping): read without parsing the query.
  if (url.startsWith(LINK_CALL_PREFIX) && url.endsWith(LINK_CALL_SUFFIX)) {
    const slug = url.slice(LINK_CALL_PREFIX.length, url.length - LINK_CALL_SUFFIX.length);
    if (PLAIN_SLUG.test(slug)) return { slug, batch: true };
  }
  const query = url.indexOf('?');
  if (query === -1 || url.slice(0, query) !== PUBLIC_PAGE_CALL_PATH) return null;
  const params = new URLSearchParams(url.slice(query + 1));
  const batch = params.get('batch') === '1';
  let input: unknown;
  try {
    input = JSON.parse(params.get('input') ?? '');
  } catch {
    return null;
  }
  const call = batch ? onlyKey(input, '0') : input;
  const slug = onlyKey(onlyKey(call, 'json'), 'slug');
  return typeof slug === 'string' && PLAIN_SLUG.test(slug) ? { slug, batch } : null;
}

/** `value[key]` when `value` is an object with that key alone, else undefined. */
function onlyKey(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === key ? (value as Record<string, unknown>)[key] : undefined;
}

/** tRPC's answer to the call for `page` (batched: an array of one result), with its ETag. */
function answerFor(page: PublicPage, batch: boolean): Answer {
  let known = answers.get(page);
  if (!known) answers.set(page, (known = {}));
  const cached = batch ? known.batch : known.single;
  if (cached) return cached;
  const result = JSON.stringify({ result: { data: serializeOutput(page) } });
  const body = batch ? `[${result}]` : result;
  const answer = { body: Buffer.from(body), etag: etagOf(body) };
  if (batch) known.batch = answer;
  else known.single = answer;
  return answer;
}

/**
 * An onRequest hook answering lone businesses.bySlug GETs from `deps.publicPages` (see the module
 * comment); every other request is left alone.
 */
export function servePublicPageCalls(deps: Pick<ServiceDeps, 'publicPages' | 'now'>) {
  return async function publicPageCall(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (req.method !== 'GET' || !req.url.startsWith(PUBLIC_PAGE_CALL_PATH)) return;
    const { cookie, accept } = req.headers;
    if (cookie && SESSION_COOKIE_PAIR.test(cookie)) return;
    if (req.headers['trpc-accept'] || accept?.includes('application/jsonl')) return;
    const call = lonePublicPageCall(req.url);
    if (!call) return;
    let page: PublicPage | null;
    try {
      page = await findPublicBusiness(deps, call.slug);
    } catch {
      return; // tRPC answers (and logs) it
    }
    if (!page) return;
    const { body, etag } = answerFor(page, call.batch);
    reply.header('vary', 'trpc-accept, accept').header('cache-control', 'no-cache').header('etag', etag);
    if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.header('content-type', 'application/json').send(body);
  };
}
