/** Environment, validated with zod at start-up; .env.example describes every variable. */
import { isIP } from 'node:net';
import { z } from 'zod';
import { ALERT_EMAIL_INTERVAL_MINUTES } from '../../shared/alerts';
import { DEFAULT_MAP_TILES, mapTileSource, type MapTiles } from '../../shared/map-tiles';

/** Default of RATE_LIMIT_MUTATIONS_PER_MINUTE. */
export const DEFAULT_MUTATIONS_PER_MINUTE = 300;

/** Default of RATE_LIMIT_SEARCHES_PER_MINUTE. */
export const DEFAULT_SEARCHES_PER_MINUTE = 120;

/** Default of RATE_LIMIT_LIVE_STREAMS_PER_IP: far above the few live streams one tab holds. */
export const DEFAULT_LIVE_STREAMS_PER_IP = 20;

/** Default of ALERT_EMAIL_INTERVAL_SECONDS: the 15 minutes Settings and the emails speak of. */
export const DEFAULT_ALERT_EMAIL_INTERVAL_SECONDS = ALERT_EMAIL_INTERVAL_MINUTES * 60;

/** Default of RATE_LIMIT_EMAIL_REQUESTS_PER_IP (the `signUpIp` and `emailRequestIp` throttle rules). */
export const DEFAULT_EMAIL_REQUESTS_PER_IP = 30;

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** Defaults of BILLING_LAUNCH_TRIAL_DAYS, BILLING_TRIAL_DAYS and BILLING_GRACE_DAYS (docs/decisions/0100). */
export const DEFAULT_LAUNCH_TRIAL_DAYS = 30;
export const DEFAULT_TRIAL_DAYS = 14;
export const DEFAULT_GRACE_DAYS = 7;

/** A whole number of days from 0 to 365, `fallback` when unset. */
const days = (fallback: number) =>
  optionalString.pipe(z.coerce.number<string>().int().min(0).max(365).optional()).transform((v) => v ?? fallback);

/** Fastify's `trustProxy`: off, on, or the proxies' addresses / CIDR ranges (Fastify 5.12 ignores hop counts). */
export type TrustProxy = boolean | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (entry: string) => {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  if (bits === undefined && PROXY_NAMES.has(address)) return true;
  return isIP(address) !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits));
};

const trustProxySchema = optionalString
  .transform((v): TrustProxy => {
    if (v === undefined || v === 'false') return false;
    if (v === 'true') return true;
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  })
  .refine((v) => !Array.isArray(v) || (v.length > 0 && v.every(isProxyAddress)), {
    message: "use 'false', 'true', or comma-separated proxy addresses / CIDR ranges",
  });

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public origin of the app, used in email links and the Origin check. */
  APP_URL: optionalString.pipe(z.url().optional()),
  /** PostgreSQL connection string; unset = embedded PGlite under PGLITE_DIR. */
  DATABASE_URL: optionalString.pipe(z.url().optional()),
  PGLITE_DIR: z.string().min(1).default('./data/pglite'),
  RESEND_API_KEY: optionalString,
  /**
   * Subscriptions (docs/decisions/0100): 'off' is the launch period (every business active, nothing to
   * pay); 'stripe' takes payments through Stripe; 'test' runs the local Stripe stand-in (development only).
   */
  BILLING: z.enum(['off', 'stripe', 'test']).default('off'),
  /** When billing starts (ISO 8601); unset: the first start with billing on, as recorded in the database. */
  BILLING_STARTS_AT: optionalString.pipe(z.iso.datetime({ offset: true }).optional()),
  /** Days a business that joined before billing started has to subscribe. */
  BILLING_LAUNCH_TRIAL_DAYS: days(DEFAULT_LAUNCH_TRIAL_DAYS),
  /** Days of free trial, at the list price, for a business that signs up after billing started. */
  BILLING_TRIAL_DAYS: days(DEFAULT_TRIAL_DAYS),
  /** Days a business whose payment failed may keep adding slots. */
  BILLING_GRACE_DAYS: days(DEFAULT_GRACE_DAYS),
  /** Stripe secret key: checkout and the billing portal ('Manage Billing'). */
  STRIPE_SECRET_KEY: optionalString,
  /** The signing secret of the Stripe webhook endpoint POST /webhooks/stripe. */
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Stripe Price id of the early adopters' monthly price (£9.95). */
  STRIPE_PRICE_EARLY_ADOPTER: optionalString,
  /** Stripe Price id of the list monthly price (£19.95). */
  STRIPE_PRICE_LIST: optionalString,
  EMAIL_FROM: z.string().min(3).default('LastSlot <no-reply@lastslot.local>'),
  SUPPORT_EMAIL: z.email().default('support@lastslot.local'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Whether the throttles' client IP comes from X-Forwarded-For: 'false', 'true' (any peer; only behind
   * a proxy that overwrites the header), or the proxies' addresses / CIDR ranges, comma-separated.
   */
  TRUST_PROXY: trustProxySchema,
  /** Per-IP limit on tRPC mutation calls (each call of a batch, and of any spelling), per minute and process. */
  RATE_LIMIT_MUTATIONS_PER_MINUTE: optionalString
    .pipe(z.coerce.number<string>().int().min(1).max(1_000_000).optional())
    .transform((v) => v ?? DEFAULT_MUTATIONS_PER_MINUTE),
  /** Sign-ups and confirmation, reset and email-change requests per client IP in 10 minutes (docs/decisions/0029). */
  RATE_LIMIT_EMAIL_REQUESTS_PER_IP: optionalString
    .pipe(z.coerce.number<string>().int().min(1).max(1_000_000).optional())
    .transform((v) => v ?? DEFAULT_EMAIL_REQUESTS_PER_IP),
  /** Folder of the built client to serve (default dist/client); lets several builds run side by side. */
  CLIENT_DIST_DIR: optionalString,
  /** Folder of the built server render (default dist/ssr), as CLIENT_DIST_DIR. */
  SERVER_RENDER_DIR: optionalString,
  /** Where pages come from: 'build' (dist/, default) or 'vite' (Vite's dev server inside this one; `npm run dev`). */
  PAGES: z.enum(['build', 'vite']).default('build'),
  /** Worker processes under the supervisor (docs/decisions/0028); see `workerCount`. */
  WEB_CONCURRENCY: optionalString.pipe(z.coerce.number<string>().int().min(1).max(256).optional()),
  /** Per-IP limit on discovery.search calls over HTTP, per minute and process (docs/decisions/0081). */
  RATE_LIMIT_SEARCHES_PER_MINUTE: optionalString
    .pipe(z.coerce.number<string>().int().min(1).max(1_000_000).optional())
    .transform((v) => v ?? DEFAULT_SEARCHES_PER_MINUTE),
  /** Live streams (SSE subscriptions) open at once per client IP, per process (docs/decisions/0092). */
  RATE_LIMIT_LIVE_STREAMS_PER_IP: optionalString
    .pipe(z.coerce.number<string>().int().min(1).max(1_000_000).optional())
    .transform((v) => v ?? DEFAULT_LIVE_STREAMS_PER_IP),
  /** Where business addresses are looked up (docs/decisions/0082); 'offline' uses no network. */
  GEOCODER: z.enum(['offline', 'postcodes-io', 'nominatim']).default('offline'),
  /** Base URL of a postcodes.io-compatible API (it can be self-hosted). */
  GEOCODER_POSTCODES_URL: optionalString.pipe(z.url().optional()).transform((v) => v ?? 'https://api.postcodes.io'),
  /** Base URL of a Nominatim server. */
  GEOCODER_NOMINATIM_URL: optionalString
    .pipe(z.url().optional())
    .transform((v) => v ?? 'https://nominatim.openstreetmap.org'),
  /** The User-Agent sent to Nominatim, naming the app and a contact, e.g. 'LastSlot/1.0 (ops@example.com)'. */
  GEOCODER_USER_AGENT: optionalString,
  /**
   * An alert's or favourite's email round, in seconds: at most one email per round, sent one round after
   * the first new slot it heard of (docs/decisions/0086). The end-to-end tests shorten it.
   */
  ALERT_EMAIL_INTERVAL_SECONDS: optionalString
    .pipe(z.coerce.number<string>().int().min(1).max(86_400).optional())
    .transform((v) => v ?? DEFAULT_ALERT_EMAIL_INTERVAL_SECONDS),
  /**
   * The maps' tile URL template with `{z}`, `{x}`, `{y}` (docs/decisions/0084). Its host is allowed in the
   * pages' Content-Security-Policy (img-src).
   */
  MAP_TILE_URL: optionalString
    .transform((v) => v ?? DEFAULT_MAP_TILES.url)
    .refine((v) => mapTileSource(v) !== null, {
      message:
        'use an http(s) URL or a path on this server with {z}, {x} and {y} ({s} only as the first part of the host), e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    }),
  /** The credit the maps show for their tiles, as HTML. */
  MAP_TILE_ATTRIBUTION: optionalString.transform((v) => v ?? DEFAULT_MAP_TILES.attribution),
  /** 'false' skips the demo data normally created on a first start with an empty database. */
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

export type Env = z.infer<typeof envSchema>;

/** Nominatim's usage policy asks every client to identify itself. */
const geocoderRules = (env: Env): string[] =>
  env.GEOCODER === 'nominatim' && !env.GEOCODER_USER_AGENT
    ? [
        "  GEOCODER_USER_AGENT: required with GEOCODER=nominatim (name the app and a contact, e.g. 'LastSlot/1.0 (ops@example.com)')",
      ]
    : [];

/** Production needs a real public https origin and a mail provider (no dev mailbox there). */
const productionRules = (env: Env): string[] => {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!env.APP_URL?.startsWith('https://')) problems.push('  APP_URL: required in production, as an https:// URL');
  if (!env.RESEND_API_KEY)
    problems.push('  RESEND_API_KEY: required in production (emails are only kept locally without it)');
  return problems;
};

const STRIPE_SETTINGS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_EARLY_ADOPTER',
  'STRIPE_PRICE_LIST',
] as const;

/** BILLING=stripe needs every Stripe setting; BILLING=test is refused in production. */
const billingRules = (env: Env): string[] => {
  if (env.BILLING === 'test' && env.NODE_ENV === 'production')
    return ['  BILLING: test runs a local stand-in for Stripe and is refused in production'];
  if (env.BILLING !== 'stripe') return [];
  return STRIPE_SETTINGS.filter((name) => !env[name]).map((name) => `  ${name}: required with BILLING=stripe`);
};

/** Parses `source`. Throws an Error whose message lists each bad variable and why. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const problems = [...productionRules(result.data), ...geocoderRules(result.data), ...billingRules(result.data)];
  if (problems.length > 0) throw new Error(`Invalid environment configuration:\n${problems.join('\n')}`);
  return result.data;
}

/** The origin used in links: APP_URL, else http://HOST:PORT (localhost for 0.0.0.0 / 127.0.0.1). */
export function appOrigin(env: Pick<Env, 'APP_URL' | 'HOST' | 'PORT'>): string {
  if (env.APP_URL) return new URL(env.APP_URL).origin;
  const host = env.HOST === '0.0.0.0' || env.HOST === '127.0.0.1' || env.HOST === '::' ? 'localhost' : env.HOST;
  return `http://${host}:${env.PORT}`;
}

/** The maps' tiles as the pages hand them to the browser: MAP_TILE_URL and MAP_TILE_ATTRIBUTION. */
export function mapTiles(env: Pick<Env, 'MAP_TILE_URL' | 'MAP_TILE_ATTRIBUTION'>): MapTiles {
  return { url: env.MAP_TILE_URL, attribution: env.MAP_TILE_ATTRIBUTION };
}

/**
 * Worker processes for the supervisor: 1 on PGlite (one process per data folder), else WEB_CONCURRENCY,
 * else `cores`. `ignored`: WEB_CONCURRENCY asked for more than PGlite allows.
 */
export function workerCount(
  env: Pick<Env, 'DATABASE_URL' | 'WEB_CONCURRENCY'>,
  cores: number,
): { count: number; ignored: boolean } {
  if (!env.DATABASE_URL) return { count: 1, ignored: (env.WEB_CONCURRENCY ?? 1) > 1 };
  return { count: env.WEB_CONCURRENCY ?? Math.max(1, cores), ignored: false };
}
