/**
 * Every page of the app, answered by the client's own router (client/entry-server.tsx) for any
 * GET or HEAD that no file or API route took, from a client that takes HTML. The router decides the
 * status (200, 404 from the route tree, its redirects); this module adds what HTTP needs around it:
 * the page's script and style tags, a nonce for the router's inline scripts in the page's
 * Content-Security-Policy, an ETag with 304 revalidation, and compression.
 *
 * Development (`npm run dev`): Vite runs inside this server (middleware mode, hot reload on the same
 * port) and the render is loaded from the sources on each request. Production: the client build
 * (dist/client) and its server render (dist/ssr), read once at start-up.
 */
import { randomBytes, createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyMiddie from '@fastify/middie';
import { createTRPCClient, unstable_localLink } from '@trpc/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ModuleNode, ViteDevServer } from 'vite';
import escapeHtml from 'escape-html';
import Negotiator from 'negotiator';
import superjson from 'superjson';
import { APP_AT_FIRST_INTERACTION_HEADER, APP_ENTRY_ATTRIBUTE } from '../../shared/boot-script';
import type { MapTiles } from '../../shared/map-tiles';
import type { RenderPageOptions } from '../../client/entry-server';
import { projectPath } from '../core/paths';
import type { CallLimits } from '../trpc/call-limits';
import { createFastifyContextFactory, type AppDeps } from '../trpc/context';
import { appRouter } from '../trpc/router';

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
  css: string[];
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
  type Chunk = { file: string; css?: string[] };
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  const entry = manifest[ENTRY_KEY];
  const boot = manifest[BOOT_KEY];
  if (!entry || !boot) throw new Error(`the client build's manifest lacks ${ENTRY_KEY} or ${BOOT_KEY}`);
  return { css: (entry.css ?? []).map((f) => `/${f}`), entry: `/${entry.file}`, boot: `/${boot.file}` };
}

/**
 * The tags a page's head gets: its style sheets, then either the app's script (loaded at once) or,
 * for a page whose route asks for it (`appAtFirstInteraction`), the boot script that loads the app
 * at the visitor's first interaction.
 */
export function assetTags(assets: PageAssets, appAtFirstInteraction: boolean, nonce: string): string {
  const css = assets.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');
  const script = appAtFirstInteraction
    ? `<script type="module" src="${escapeHtml(assets.boot)}" ${APP_ENTRY_ATTRIBUTE}="${escapeHtml(assets.entry)}"></script>`
    : `<script type="module" src="${escapeHtml(assets.entry)}"></script>`;
  const dev = assets.devHead
    ? assets.devHead.replaceAll('<script type="module">', `<script type="module" nonce="${nonce}">`)
    : '';
  return dev + css + script;
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

/**
 * What a page's ETag is computed from: its HTML without the router's inline scripts (the ones that
 * carry `nonce`). Those hold the router state and query cache the markup was rendered from, stamped
 * with the render's time, so every answer differs in them; the markup shows that data. A browser
 * that keeps its copy on a 304 hydrates the older state, and its queries, already stale, ask again.
 */
export function pageIdentity(html: string, nonce: string): string {
  const opening = `<script nonce="${nonce}"`;
  let out = '';
  let from = 0;
  for (let at = html.indexOf(opening); at !== -1; at = html.indexOf(opening, from)) {
    out += html.slice(from, at);
    const close = html.indexOf('</script>', at);
    from = close === -1 ? html.length : close + '</script>'.length;
  }
  return (out + html.slice(from)).replaceAll(nonce, '');
}

/** `csp` (a Content-Security-Policy value) allowing inline scripts that carry `nonce`. */
export function withScriptNonce(csp: string, nonce: string): string {
  return csp.replace(/script-src ([^;]*)/, (_all, sources: string) => `script-src ${sources} 'nonce-${nonce}'`);
}

/**
 * Registers the page answers on `app`: every GET path that no file or API route has (those are
 * more specific routes, so they come first); a client that takes no HTML gets a plain 404.
 * `csp` is the Content-Security-Policy every other answer carries; a page's adds its nonce.
 * `mapTiles` goes to every render, for the pages' maps. The calls a render makes count against `limits`
 * for the client, as the same calls from its browser would (docs/decisions/0092).
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

  // Every GET (and so HEAD) path that no file or API route has is a page.
  app.get('/*', async (req, reply) => {
    if (req.url.startsWith('/trpc') || !acceptsHtml(req.headers.accept)) {
      return reply.code(404).header('vary', 'accept').send({ error: 'Not Found' });
    }
    const { render, assets } = await load();
    const nonce = randomBytes(16).toString('base64');
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
      nonce,
      cookies: req.cookies,
      sessionUnknown: sessionRead.outcome !== 'fulfilled',
    });
    // Who the page was rendered for: its ETag is theirs alone. A shell carries no one's data.
    const viewer = sessionRead.outcome === 'fulfilled' ? ((await context).session?.id ?? null) : null;
    return sendPage(req, reply, response, { assets, nonce, csp, viewer });
  });
}

/**
 * Sends the router's `response`: its status and headers, the page's tags, ETag (`viewer`'s, see
 * etagOf), 304 and compression. Pages differ by session cookie, hence `Vary: Cookie`.
 */
async function sendPage(
  req: FastifyRequest,
  reply: FastifyReply,
  response: Response,
  { assets, nonce, csp, viewer }: { assets: PageAssets; nonce: string; csp: string; viewer: string | null },
) {
  reply
    .code(response.status)
    .header('vary', 'accept, accept-encoding, cookie')
    .header('cache-control', 'private, no-cache');
  const location = response.headers.get('location');
  if (location) return reply.header('location', location).send();
  const appAtFirstInteraction = response.headers.get(APP_AT_FIRST_INTERACTION_HEADER) === '1';
  const rendered = await response.text();
  const close = rendered.indexOf('</head>');
  const tags = assetTags(assets, appAtFirstInteraction, nonce);
  const html = close === -1 ? rendered : rendered.slice(0, close) + tags + rendered.slice(close);
  reply.type('text/html; charset=utf-8').header('content-security-policy', withScriptNonce(csp, nonce));
  if (response.status === 200) {
    const etag = etagOf(pageIdentity(html, nonce), viewer);
    reply.header('etag', etag);
    if (etagMatches(req.headers['if-none-match'], etag)) {
      // The browser keeps the page it has, with the policy (and nonce) it came with.
      reply.removeHeader('content-security-policy');
      return reply.code(304).send();
    }
  }
  return reply.compress(html);
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
    if (/\.css($|\?)/.test(node.url)) found.add(`${node.url}${node.url.includes('?') ? '&' : '?'}direct`);
    node.importedModules.forEach(walk);
  };
  walk(vite.moduleGraph.getModuleById(path.join(vite.config.root, DEV_RENDER_ENTRY)));
  return [...found];
}
