/**
 * Every page of the app, answered by the client's own router (client/entry-server.tsx) for any
 * GET or HEAD that no file or API route took, from a client that takes HTML. The router decides the
 * status (200, 404 from the route tree, its redirects); this module adds what HTTP needs around it:
 * the page's script and style tags, its inline scripts' hashes in its Content-Security-Policy, an
 * ETag with 304 revalidation, and compression; and it keeps the pages visitors without a session get
 * (`/` and the public business pages) in the visitor page cache (docs/decisions/0106).
 *
 * Development (`npm run dev`): Vite runs inside this server (middleware mode, hot reload on the same
 * port) and the render is loaded from the sources on each request. Production: the client build
 * (dist/client) and its server render (dist/ssr), read once at start-up.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import fastifyMiddie from '@fastify/middie';
import { createTRPCClient, unstable_localLink } from '@trpc/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleNode, ViteDevServer } from 'vite';
import escapeHtml from 'escape-html';
import Negotiator from 'negotiator';
import superjson from 'superjson';
import { APP_AT_FIRST_INTERACTION_HEADER, APP_ENTRY_ATTRIBUTE } from '../../shared/boot-script';
import { ROUTE_FILES_HEADER } from '../../shared/route-files';
import { CONSENT_KEY, consentChosen } from '../../shared/consent';
import type { MapTiles } from '../../shared/map-tiles';
import { zonedInstant } from '../../shared/zoned-time';
import type { RenderPageOptions } from '../../client/entry-server';
import { projectPath } from '../core/paths';
import { SESSION_COOKIE } from '../features/auth/session';
import { findPublicBusiness } from '../features/businesses/businesses.service';
import type { CallLimits } from '../trpc/call-limits';
import { createFastifyContextFactory, type AppDeps } from '../trpc/context';
import { appRouter } from '../trpc/router';
import { readClientManifest, routeStyleSheets } from './client-manifest';
import { VISITOR_PAGE_TTL_MS, type VisitorPage, type VisitorPageKey } from './visitor-page-cache';

/** The client's entry and boot script, as the client build's manifest names them (relative to client/). */
const ENTRY_KEY = 'entry-client.tsx';
const BOOT_KEY = 'boot.ts';

/**
 * How long (ms) a page's render waits for the session read (the session cookie looked up in the
 * database). When the read fails or takes longer, the render does not know who is signed in: it
 * renders the document shell with the page's loading screen, with no auth.me answer, and the
 * browser renders the page's routes, asking auth.me itself through the guards and the dashboard
 * gate (docs/decisions/0088).
 */
export const RENDER_SESSION_READ_LIMIT_MS = 1_000;

/**
 * How `promise` settles within `ms` milliseconds: 'fulfilled', 'rejected' (its reason in `err`), or
 * 'timedOut' when still pending then (its later outcome is ignored; a later rejection is handled).
 */
export function settleWithin(
  promise: Promise<unknown>,
  ms: number,
): Promise<{ outcome: 'fulfilled' } | { outcome: 'rejected'; err: unknown } | { outcome: 'timedOut' }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ outcome: 'timedOut' }), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve({ outcome: 'fulfilled' });
      },
      (err: unknown) => {
        clearTimeout(timer);
        resolve({ outcome: 'rejected', err });
      },
    );
  });
}

/** Where `npm run build:client` writes the server render, beside dist/client. */
export const SERVER_RENDER_DIR = projectPath('dist', 'ssr');

/** What a page needs besides its markup: style sheets, the app's script and the boot script. */
export interface PageAssets {
  /** The entry's style sheets, linked on every page. */
  css: string[];
  /**
   * A built client's: the style sheets of the routes whose code is split from the entry, by route
   * file (client/routes/register.tsx as 'routes/register.tsx'; client-manifest.ts `routeStyleSheets`).
   */
  routeCss?: Record<string, string[]>;
  entry: string;
  boot: string;
  /** Development only: Vite's client and React's refresh preamble, written before the rest. */
  devHead?: string;
}

/** The server render's module (client/entry-server.tsx). */
interface RenderModule {
  renderPage(options: RenderPageOptions): Promise<Response>;
}

/** Where the page answers come from: a built client, or Vite's development server. */
export type PageSource = { kind: 'build'; clientDir: string; renderDir?: string } | { kind: 'vite'; root?: string };

/**
 * The assets of the client built in `clientDir`, from Vite's manifest. Throws when the manifest
 * lacks the entry or the boot script: a broken build must not start.
 */
export function buildAssets(clientDir: string): PageAssets {
  const manifest = readClientManifest(clientDir);
  const entry = manifest[ENTRY_KEY];
  const boot = manifest[BOOT_KEY];
  if (!entry || !boot) throw new Error(`the client build's manifest lacks ${ENTRY_KEY} or ${BOOT_KEY}`);
  return {
    css: (entry.css ?? []).map((f) => `/${f}`),
    routeCss: Object.fromEntries(
      Object.entries(routeStyleSheets(manifest, ENTRY_KEY)).map(([file, css]) => [file, css.map((f) => `/${f}`)]),
    ),
    entry: `/${entry.file}`,
    boot: `/${boot.file}`,
  };
}

/**
 * The tags a page's head gets: its style sheets (the entry's, then those of the chunks of
 * `routeFiles`, the page's matched routes' files, so that a screen whose code loads apart is styled
 * before the app runs), then either the app's script (loaded at once) or, for a page whose route
 * asks for it (`appAtFirstInteraction`), the boot script that loads the app at the visitor's first
 * interaction.
 */
export function assetTags(assets: PageAssets, appAtFirstInteraction: boolean, routeFiles: string[] = []): string {
  const sheets = new Set([...assets.css, ...routeFiles.flatMap((f) => assets.routeCss?.[f] ?? [])]);
  const css = [...sheets].map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');
  const script = appAtFirstInteraction
    ? `<script type="module" src="${escapeHtml(assets.boot)}" ${APP_ENTRY_ATTRIBUTE}="${escapeHtml(assets.entry)}"></script>`
    : `<script type="module" src="${escapeHtml(assets.entry)}"></script>`;
  return (assets.devHead ?? '') + css + script;
}

/**
 * Whether a request with this `Accept` header takes an HTML answer (content negotiation): text/html
 * named or matched by a wildcard, or no header at all. Browsers name text/html when they navigate;
 * link previewers and monitors send the wildcard or nothing and must see a page as it is.
 */
export function acceptsHtml(accept: string | undefined): boolean {
  const headers = accept === undefined ? {} : { accept };
  return new Negotiator({ headers }).mediaType(['text/html']) !== undefined;
}

/**
 * A strong ETag for `body` as `viewer` (the session it was rendered for, or null) sees it: a quoted
 * base64url SHA-1 of both. A page's inline state carries its viewer's data (auth.me, their alerts),
 * so one viewer's ETag never matches the page rendered for another.
 */
export function etagOf(body: string, viewer: string | null = null): string {
  const hash = createHash('sha1').update(body);
  if (viewer !== null) hash.update(`\0viewer:${viewer}`);
  return `"${hash.digest('base64url')}"`;
}

/** Whether an If-None-Match header value names `etag` (weak comparison; '*' matches anything). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** A script element with its attributes and its text; those without `src` are inline. */
const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const isInline = (attributes: string) => !/\bsrc\s*=/i.test(attributes);

/**
 * What a page's ETag is computed from: its HTML without its inline scripts (the router's). Those hold
 * the router state and query cache the markup was rendered from, stamped with the render's time, so
 * every render differs in them; the markup shows that data. A browser that keeps its copy on a 304
 * hydrates the older state, and its queries, already stale, ask again.
 */
export function pageIdentity(html: string): string {
  return html.replace(SCRIPT_ELEMENT, (element, attributes: string) => (isInline(attributes) ? '' : element));
}

/**
 * `csp` (a Content-Security-Policy value) allowing exactly the inline scripts of `html`, by the
 * base64 SHA-256 of each one's text (docs/decisions/0107); unchanged when it has none.
 */
export function withInlineScriptHashes(csp: string, html: string): string {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(SCRIPT_ELEMENT))
    if (isInline(attributes!)) hashes.add(`'sha256-${createHash('sha256').update(text!).digest('base64')}'`);
  if (hashes.size === 0) return csp;
  return csp.replace(/script-src ([^;]*)/, (_all, sources: string) => `script-src ${sources} ${[...hashes].join(' ')}`);
}

/** The content codings a page is sent in, the server's preference first. */
const PAGE_ENCODINGS: VisitorPage['encoding'][] = ['br', 'gzip', 'identity'];

/** The coding of a page answer for an Accept-Encoding header (identity when it names none we have). */
export function pageEncoding(acceptEncoding: string | undefined): VisitorPage['encoding'] {
  return (acceptEncoding && negotiate(acceptEncoding, PAGE_ENCODINGS)) || 'identity';
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * `html` compressed with `encoding`: Brotli at quality 4 (its default, 11, costs far more CPU than a
 * render for a few percent fewer bytes), gzip at its default level.
 */
export async function encodePage(html: string, encoding: VisitorPage['encoding']): Promise<Buffer> {
  const bytes = Buffer.from(html);
  if (encoding === 'br')
    return brotli(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
  if (encoding === 'gzip') return gzip(bytes);
  return bytes;
}

/** How long (s) a CDN may keep a visitor's page without asking again, at most. */
export const CDN_FRESH_SECONDS = 10;
/** How long (s) after that a CDN may still answer with it while it asks again. */
export const CDN_STALE_SECONDS = 10;

/** Cache-Control of a page only a visitor without a session gets, `secondsLeft` before it expires here. */
export function visitorCacheControl(secondsLeft: number): string {
  const fresh = Math.max(0, Math.min(CDN_FRESH_SECONDS, Math.floor(secondsLeft)));
  return `public, max-age=0, s-maxage=${fresh}, stale-while-revalidate=${CDN_STALE_SECONDS}`;
}

/** Cache-Control of every other page: the browser keeps it but asks again each time; no shared cache. */
const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/**
 * Where a request's page may be read from and kept in the visitor page cache: its key, or null for a
 * request with a session cookie (its page is its viewer's) or a query string (not cached).
 */
export function visitorPageKey(req: FastifyRequest, encoding: VisitorPage['encoding']): VisitorPageKey | null {
  if (req.cookies[SESSION_COOKIE] !== undefined) return null;
  const query = req.url.indexOf('?');
  if (query !== -1) return null;
  return { path: req.url, encoding, consentChosen: consentChosen(req.cookies[CONSENT_KEY]) };
}

/**
 * Registers the page answers on `app`: every GET path that no file or API route has (those are
 * more specific routes, so they come first); a client that takes no HTML gets a plain 404.
 * `csp` is the Content-Security-Policy every other answer carries; a page's adds its inline scripts'
 * hashes. `mapTiles` goes to every render, for the pages' maps. The calls a render makes count against
 * `limits` for the client, as the same calls from its browser would (docs/decisions/0092). `/` and the
 * public business pages a visitor without a session gets are kept in `deps.visitorPages`
 * (docs/decisions/0106).
 */
export async function registerPages(
  app: FastifyInstance,
  {
    deps,
    limits,
    source,
    csp,
    mapTiles,
  }: { deps: AppDeps; limits: CallLimits; source: PageSource; csp: string; mapTiles: MapTiles },
): Promise<void> {
  const load = await pageLoader(app, source);
  const createContext = createFastifyContextFactory(deps, limits);
  const cache = deps.visitorPages;

  // Every GET (and so HEAD) path that no file or API route has is a page.
  app.get('/*', async (req, reply) => {
    if (req.url.startsWith('/trpc') || !acceptsHtml(req.headers.accept)) {
      return reply.code(404).header('vary', 'accept').send({ error: 'Not Found' });
    }
    const encoding = pageEncoding(req.headers['accept-encoding']);
    const key = visitorPageKey(req, encoding);
    const cached = key && cache.get(key, deps.now().getTime());
    if (cached) return sendPage(req, reply, cached, deps.now().getTime());
    const token = cache.startRender();
    const { render, assets } = await load();
    // One context per page: the session is read once, however many calls the loaders make.
    const context = createContext({ req, res: reply });
    // The render waits a bounded time for it (a late read's cookie renewal is lost with it).
    const sessionRead = await settleWithin(context, RENDER_SESSION_READ_LIMIT_MS);
    if (sessionRead.outcome === 'rejected') {
      req.log.warn({ err: sessionRead.err }, 'page rendered as a shell: the session read failed');
    } else if (sessionRead.outcome === 'timedOut') {
      req.log.warn(`page rendered as a shell: no session read within ${RENDER_SESSION_READ_LIMIT_MS} ms`);
    }
    const trpcClient = createTRPCClient({
      links: [unstable_localLink({ router: appRouter, createContext: () => context, transformer: superjson })],
    });
    const response = await render({
      request: toFetchRequest(req, reply),
      trpcClient,
      origin: deps.appOrigin,
      mapTiles,
      cookies: req.cookies,
      sessionUnknown: sessionRead.outcome !== 'fulfilled',
    });
    reply.code(response.status).header('vary', PAGE_VARY).header('cache-control', PRIVATE_CACHE_CONTROL);
    const location = response.headers.get('location');
    if (location) return reply.header('location', location).send();
    const html = await pageHtml(response, assets);
    // Who the page was rendered for: its ETag is theirs alone. A shell carries no one's data.
    const viewer = sessionRead.outcome === 'fulfilled' ? ((await context).session?.id ?? null) : null;
    const page: VisitorPage = {
      body: await encodePage(html, encoding),
      encoding,
      etag: etagOf(pageIdentity(html), viewer),
      csp: withInlineScriptHashes(csp, html),
      expiresAt: 0,
      businessId: null,
    };
    // Kept: a visitor's whole page (not a shell) that sets no cookie, at a path that may be kept.
    const kept =
      key && response.status === 200 && sessionRead.outcome === 'fulfilled' && !reply.hasHeader('set-cookie')
        ? await visitorPageExpiry(deps, key.path)
        : null;
    if (!kept) return sendPage(req, reply, page, null);
    const now = deps.now().getTime();
    Object.assign(page, { expiresAt: Math.min(now + VISITOR_PAGE_TTL_MS, kept.changesAt ?? Infinity), ...kept });
    cache.set(key!, page, token);
    return sendPage(req, reply, page, now);
  });
}

/** What HTTP caches must key a page by besides its URL. */
const PAGE_VARY = 'accept, accept-encoding, cookie';

/**
 * Whether the page at `path` (a visitor's) may be kept, and what it depends on: `/` on nothing but the
 * time, a public business page on its business and its next slot start; null for any other page.
 */
async function visitorPageExpiry(
  deps: AppDeps,
  path: string,
): Promise<{ businessId: string | null; changesAt: number | null } | null> {
  if (path === '/') return { businessId: null, changesAt: null };
  const slug = path.slice(1);
  if (slug.includes('/')) return null;
  const page = await findPublicBusiness(deps, slug);
  if (!page) return null;
  const { timezone } = page.business;
  // Started slots are not shown: the first to start is the first the page loses.
  let changesAt: number | null = null;
  for (const s of page.slots) {
    const t = zonedInstant(s.date, s.startTime, timezone).getTime();
    if (changesAt === null || t < changesAt) changesAt = t;
  }
  return { businessId: page.business.id, changesAt };
}

/** The router's HTML with the page's script and style tags in its head. */
async function pageHtml(response: Response, assets: PageAssets): Promise<string> {
  const appAtFirstInteraction = response.headers.get(APP_AT_FIRST_INTERACTION_HEADER) === '1';
  const routeFiles = response.headers.get(ROUTE_FILES_HEADER)?.split(',') ?? [];
  const rendered = await response.text();
  const close = rendered.indexOf('</head>');
  const tags = assetTags(assets, appAtFirstInteraction, routeFiles);
  return close === -1 ? rendered : rendered.slice(0, close) + tags + rendered.slice(close);
}

/**
 * Sends `page` with its status (set by the caller, 200 for a cached page), ETag and 304, policy and
 * coding. `now` (ms) is given for a page kept in the visitor page cache: it is sent for shared caches
 * too, until its expiry; any other page is its viewer's. Pages differ by session cookie, hence
 * `Vary: Cookie`.
 */
function sendPage(req: FastifyRequest, reply: FastifyReply, page: VisitorPage, now: number | null) {
  reply.header('vary', PAGE_VARY).type('text/html; charset=utf-8');
  reply.header(
    'cache-control',
    now === null ? PRIVATE_CACHE_CONTROL : visitorCacheControl((page.expiresAt - now) / 1000),
  );
  if (now !== null) reply.code(200);
  if (reply.statusCode === 200) {
    reply.header('etag', page.etag);
    if (etagMatches(req.headers['if-none-match'], page.etag)) {
      // The browser keeps the page it has, with the policy it came with.
      reply.removeHeader('content-security-policy');
      return reply.code(304).send();
    }
  }
  reply.header('content-security-policy', page.csp);
  if (page.encoding !== 'identity') reply.header('content-encoding', page.encoding);
  return reply.send(page.body);
}

/** A fetch Request for the router from a Fastify request: URL, headers and the client's abort. */
function toFetchRequest(req: FastifyRequest, reply: FastifyReply): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  // The render stops when the client goes away before its answer is sent.
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return new Request(new URL(req.url, 'http://localhost'), { method: 'GET', headers, signal: controller.signal });
}

/**
 * The render and assets for each request: read once from a build, or from Vite's development
 * server, which this registers on `app` (its middlewares, and its hot-reload socket on the same
 * HTTP server).
 */
async function pageLoader(
  app: FastifyInstance,
  source: PageSource,
): Promise<() => Promise<{ render: RenderModule['renderPage']; assets: PageAssets }>> {
  if (source.kind === 'build') {
    const renderFile = path.join(source.renderDir ?? SERVER_RENDER_DIR, 'entry-server.js');
    if (!existsSync(renderFile)) throw new Error(`no server render at ${renderFile}: run npm run build`);
    const module = (await import(pathToFileURL(renderFile).href)) as RenderModule;
    const loaded = { render: module.renderPage, assets: buildAssets(source.clientDir) };
    return async () => loaded;
  }
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: projectPath('vite.config.ts'),
    server: { middlewareMode: true, hmr: { server: app.server } },
    appType: 'custom',
  });
  await app.register(fastifyMiddie);
  app.use(vite.middlewares);
  app.addHook('onClose', () => vite.close());
  return async () => {
    const empty = await vite.transformIndexHtml('/', '<html><head></head><body></body></html>');
    const devHead = empty.slice(empty.indexOf('<head>') + 6, empty.indexOf('</head>'));
    const module = (await vite.ssrLoadModule(DEV_RENDER_ENTRY)) as RenderModule;
    const assets = { css: devStyleSheets(vite), entry: '/entry-client.tsx', boot: '/boot.ts', devHead };
    return { render: module.renderPage, assets };
  };
}

const DEV_RENDER_ENTRY = '/entry-server.tsx';

/**
 * Development: the style sheets the render's modules import, as Vite serves them to a `<link>`
 * (`?direct`), so a page is styled before its app loads, as a built page is.
 */
function devStyleSheets(vite: ViteDevServer): string[] {
  const found = new Set<string>();
  const seen = new Set<ModuleNode>();
  const walk = (node: ModuleNode | undefined) => {
    if (!node || seen.has(node)) return;
    seen.add(node);
    // A virtual module's id starts with \0, which Vite serves as /@id/__x00__ (its documented convention).
    const url = node.url.startsWith('\0') ? `/@id/__x00__${node.url.slice(1)}` : node.url;
    if (/\.css($|\?)/.test(url)) found.add(`${url}${url.includes('?') ? '&' : '?'}direct`);
    node.importedModules.forEach(walk);
  };
  walk(vite.moduleGraph.getModuleById(path.join(vite.config.root, DEV_RENDER_ENTRY)));
  return [...found];
}
