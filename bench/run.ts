/**
 * `npm run bench`: the performance harness (docs/decisions/0026, budgets: 0110). Builds the app's
 * server, creates a throw-away PostgreSQL database, migrates and seeds it, then drives target A (the
 * app's production build in production mode), target B (bench/baseline-server.ts) and, on every
 * tRPC call, target C (bench/framework-floor-server.ts: the framework alone), the same number of
 * processes each, each freshly started before every measurement, rounds interleaved A, B, C, with
 * autocannon (A's CPU readings wait until the emails its requests queued are sent: docs/decisions/0063),
 * and prints a table plus PASS/FAIL per budget. Scenarios: the public page HTML under a visitors'
 * mix, a render missing every cache (distinct pages), the public data call, booking, dashboard,
 * discovery (then again on a data set BENCH_DISCOVERY_LARGE times larger) and live update; each
 * closed loop of A is followed by A at half its done/s for the p99. Always exits 0 once it has
 * measured (a benchmark measures; it is not a test); exits 1 only when it could not run. See bench/README.md.
 *
 * Settings (env, or the same names as flags: `--scale 0.02`, `--duration=3`):
 * BENCH_SCALE (1 = 10,000 businesses x 40 slots), BENCH_DURATION (s, 8), BENCH_WARMUP (s, 2),
 * BENCH_ROUNDS (2), BENCH_CONNECTIONS (32), BENCH_SCENARIOS (page,render,public,booking,dashboard,discovery,live),
 * BENCH_RATE_SHARE (0.5: the p99 runs' rate as a share of A's closed-loop done/s; 0 skips them),
 * BENCH_RATE_FLOOR (1: B runs at that rate too), BENCH_RENDER_PASS (2000 distinct pages measured),
 * BENCH_RENDER_WARMUP (500 other pages first), BENCH_DISCOVERY_LARGE (4: the discovery seed of
 * 100,000 businesses x 10 slots x BENCH_SCALE again at 4x; 0 skips),
 * BENCH_LIVE_SUBSCRIBERS (200), BENCH_LIVE_RATE (deliveries/s, 500), BENCH_PG_URL
 * (postgres://postgres@127.0.0.1:5432), BENCH_PORT (3360; B uses +1, C +2), BENCH_SKIP_BUNDLE (1: no
 * vite build), BENCH_CLIENT_DIST (a build to use instead of building: a folder with client/ and ssr/), BENCH_KEEP_LOGS,
 * BENCH_WORKERS (processes per target; default: one per core, A's production default),
 * BENCH_EXTRA_SQL (SQL run after seeding, e.g. a candidate index: a what-if, printed with the results),
 * BENCH_PAGE_HOT_SHARE (the public page's share of views on its hot pages, 0.99; another share is a
 * what-if, printed with the results),
 * BENCH_SKIP_LIGHTHOUSE (1: no Lighthouse), BENCH_LIGHTHOUSE_RUNS (3 per page; bench/lighthouse.ts),
 * BENCH_PROFILE_DIR (each target's processes write `node --cpu-prof` profiles there, a folder per run),
 * BENCH_FLOOR_PLAIN_ANSWERS (1: target C also runs with its answers as plain JSON, without superjson).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { baselineStatements } from './baseline-sql';
import { buildClient, measureBundle, removeBuild, type BundleSizes } from './bundle';
import { chromePath, formatLighthouse, measureLighthouse, type LighthouseResult } from './lighthouse';
import { captureAppSql } from './capture-sql';
import {
  businessSlug,
  businessToken,
  createBenchDatabase,
  customerToken,
  databaseUrl,
  DEFAULT_SERVER_URL,
  dropBenchDatabase,
  migrateBenchDatabase,
  DISCOVERY_BUSINESSES,
  discoverySearches,
  seedBenchDatabase,
  seedDiscoveryData,
  seedSize,
  SLOTS_PER_BUSINESS,
  type BenchDatabase,
} from './db';
import type { FloorCall } from './framework-floor-server';
import { measureLive } from './live';
import { measure, type BenchRequest, type CpuProbe, type LoadResult, type LoadShape } from './load';
import {
  DISCOVERY_LARGE,
  formatSummary,
  formatTable,
  formatVerdicts,
  halfRate,
  LIVE_UPDATE,
  PUBLIC_PAGE,
  RATE_SHARE,
  RENDER_DATA,
  RENDER_HTML,
  SCENARIO_BUDGETS,
  TARGET_NAMES,
  verdicts,
  type Row,
} from './report';
import {
  buildServerForBench,
  killAllTargets,
  repoRoot,
  startEmailStub,
  startTarget,
  type EmailStub,
  type RunningTarget,
  type TargetKind,
} from './targets';
import { distinctPass, GROUP_CHAT_MIX, visitorBusiness } from './visitors';
import { BENCH_APP_URL, batchMutation, batchQueryPath, sessionCookie } from './wire';
import { kb } from '../scripts/bundle-size';

/** Reads `--name value` / `--name=value` flags into BENCH_NAME env values. */
function flagsToEnv(argv: string[]): void {
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) continue;
    let value = m[2];
    if (value === undefined) value = argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i]! : '1';
    process.env[`BENCH_${m[1]!.toUpperCase().replace(/-/g, '_')}`] = value;
  }
}
flagsToEnv(process.argv.slice(2));

const num = (name: string, dflt: number) => {
  const v = process.env[name];
  const n = v === undefined || v === '' ? dflt : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number`);
  return n;
};
const cfg = {
  scale: num('BENCH_SCALE', 1),
  duration: num('BENCH_DURATION', 8),
  warmup: num('BENCH_WARMUP', 2),
  rounds: Math.max(1, Math.round(num('BENCH_ROUNDS', 2))),
  connections: Math.max(1, Math.round(num('BENCH_CONNECTIONS', 32))),
  scenarios: new Set(
    (process.env.BENCH_SCENARIOS ?? 'page,render,public,booking,dashboard,discovery,live')
      .split(',')
      .map((s) => s.trim()),
  ),
  /** The p99 runs' rate as a share of A's closed-loop done/s of the same round; 0 skips them. */
  rateShare: num('BENCH_RATE_SHARE', RATE_SHARE),
  /** Also run B at A's half rate (its p99 printed beside A's). */
  rateFloor: ['1', 'true'].includes(process.env.BENCH_RATE_FLOOR ?? ''),
  /** Pages in the measured pass of the cache-missing render, and in the warm-up pass before it. */
  renderPass: Math.max(1, Math.round(num('BENCH_RENDER_PASS', 2000))),
  renderWarmup: Math.max(1, Math.round(num('BENCH_RENDER_WARMUP', 500))),
  /** Discover's larger data set, a multiple of the first (4: 4M slots at scale 1); 0 or 1 skips it. */
  discoveryLarge: num('BENCH_DISCOVERY_LARGE', 4),
  liveSubscribers: Math.max(2, Math.round(num('BENCH_LIVE_SUBSCRIBERS', 200))),
  liveRate: num('BENCH_LIVE_RATE', 500),
  serverUrl: process.env.BENCH_PG_URL || DEFAULT_SERVER_URL,
  port: Math.round(num('BENCH_PORT', 3360)),
  skipBundle: ['1', 'true'].includes(process.env.BENCH_SKIP_BUNDLE ?? ''),
  clientDist: process.env.BENCH_CLIENT_DIST || '',
  keepLogs: ['1', 'true'].includes(process.env.BENCH_KEEP_LOGS ?? ''),
  extraSql: process.env.BENCH_EXTRA_SQL ?? '',
  /** The visitors' mix's share of views on the hot pages (0..1); GROUP_CHAT_MIX's is the budget's. */
  pageHotShare: Math.min(1, num('BENCH_PAGE_HOT_SHARE', GROUP_CHAT_MIX.hotShare)),
  /** Processes per target; unset: one per core, which is A's production default. */
  workers: Math.max(1, Math.round(num('BENCH_WORKERS', os.availableParallelism()))),
  workersForA: Boolean(process.env.BENCH_WORKERS),
  skipLighthouse: ['1', 'true'].includes(process.env.BENCH_SKIP_LIGHTHOUSE ?? ''),
  lighthouseRuns: Math.max(1, Math.round(num('BENCH_LIGHTHOUSE_RUNS', 3))),
  /** Also run C with its answers as plain JSON: what superjson's answer walk costs. */
  floorPlainAnswers: ['1', 'true'].includes(process.env.BENCH_FLOOR_PLAIN_ANSWERS ?? ''),
  /** Where the targets' CPU profiles go (a folder per run), or '' for none. */
  profileDir: process.env.BENCH_PROFILE_DIR ? path.resolve(process.env.BENCH_PROFILE_DIR) : '',
};

const log = (line: string) => console.log(line);
/** How long a measured A run waits for its queued emails to be sent, and how often it looks. */
const DRAIN_TIMEOUT_MS = 60_000;
const DRAIN_POLL_MS = 100;
/** The tRPC calls, which C answers as well: their floor is B and C combined (docs/decisions/0110). */
const FLOOR_SCENARIOS = new Set(['public', 'booking', 'dashboard', 'discovery']);

/** `request` sent once to `url`: the procedures of its path, the answer's text and the call's type, what C answers. */
async function floorCallOf(url: string, request: BenchRequest): Promise<FloorCall> {
  const res = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  if (!res.ok) throw new Error(`${request.path} answered ${res.status}`);
  const procedures = new URL(request.path, url).pathname.replace(/^\/trpc\//, '').split(',');
  return { procedures, body: await res.text(), type: request.method === 'POST' ? 'mutation' : 'query' };
}
/** Logs whether B answered the scenario's first call with A's bytes; a difference means B is no floor for A. */
function checkSameAnswer(scenario: string, app: string | undefined, floor: string): void {
  if (app === undefined) return;
  if (app === floor) {
    log(`  ${scenario}: B's answer is A's, byte for byte (${app.length} bytes)`);
    return;
  }
  let at = 0;
  while (app[at] === floor[at]) at++;
  log(
    `  WARNING ${scenario}: B's answer differs from A's at byte ${at}: A ...${app.slice(Math.max(0, at - 40), at + 40)}... ` +
      `B ...${floor.slice(Math.max(0, at - 40), at + 40)}...`,
  );
}

let database: BenchDatabase | null = null;
let serverEntry: string | null = null;
let emailStub: EmailStub | null = null;
/** The client this run built (removed at the end), or null. */
let builtClient: string | null = null;
let cleaning: Promise<void> | null = null;
const logDir = mkdtempSync(path.join(os.tmpdir(), 'lastslot-bench-'));

/** Stops every target and drops the database (once, whichever path gets here first). */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    killAllTargets();
    await emailStub?.close();
    if (serverEntry) removeBuild(path.dirname(serverEntry));
    if (builtClient) removeBuild(builtClient);
    if (database) {
      const dropped = await dropBenchDatabase(cfg.serverUrl, database.name);
      if (dropped) log(`dropped database ${database.name}`);
    }
    if (!cfg.keepLogs) rmSync(logDir, { recursive: true, force: true });
    else log(`target logs kept in ${logDir}`);
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`\n${signal}: stopping targets and dropping the bench database...`);
    void cleanup().finally(() => process.exit(130));
  });
}

const uuidOfBusiness = (i: number) => benchUuid(`business-${i}`);
/** bench_uuid(text) of bench/db.ts: the md5 digest as a UUID with version 4 and variant 8 digits. */
function benchUuid(s: string): string {
  const hex = createHash('md5').update(s).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

interface Scenario {
  name: string;
  key: string;
  /** Requests for the measured run of `target`, given the run's shape; `check` verifies afterwards. */
  prepare(
    target: TargetKind,
    label: string,
  ): { next: (i: number) => BenchRequest; check?: (r: LoadResult) => Promise<void> };
}

async function main(): Promise<void> {
  const started = Date.now();
  const size = seedSize(cfg.scale);
  log(
    `LastSlot bench: ${os.cpus().length} cores, Node ${process.version}; scale ${cfg.scale} (${size.businesses} businesses x ${SLOTS_PER_BUSINESS} slots, ${size.customers} customers); ` +
      `${cfg.rounds} rounds, ${cfg.warmup}s warm-up + ${cfg.duration}s per run, ${cfg.connections} connections`,
  );

  // Lighthouse needs the browser; without it the run would fail midway, leaving target A running.
  if (!cfg.skipLighthouse && !existsSync(chromePath())) {
    throw new Error(`no Chromium at ${chromePath()} (apt-get install chromium, or BENCH_SKIP_LIGHTHOUSE=1)`);
  }

  // One client build serves the bundle measurement, Lighthouse and the page scenarios (target A
  // serves it and renders the pages with it).
  const rendersPages = cfg.scenarios.has('page') || cfg.scenarios.has('render');
  let clientDir: string | null = null;
  if (!cfg.skipBundle || !cfg.skipLighthouse || rendersPages) {
    if (cfg.clientDist) {
      clientDir = path.resolve(cfg.clientDist);
      if (!existsSync(path.join(clientDir, 'ssr', 'entry-server.js')))
        throw new Error(`BENCH_CLIENT_DIST ${clientDir} has no ssr/entry-server.js: A could not render the pages`);
    } else {
      log('building the client (vite build into .tmp/)...');
      clientDir = builtClient = buildClient(repoRoot);
    }
  }
  const bundle: BundleSizes | null =
    !cfg.skipBundle && clientDir ? measureBundle(path.join(clientDir, 'client')) : null;

  // A runs the server as production does: built to JavaScript, run by plain node (docs/decisions/0042).
  log('building the server (vite build --config vite.server.config.ts into .tmp/)...');
  serverEntry = buildServerForBench(repoRoot);
  emailStub = await startEmailStub();
  log(
    `targets: A = ${path.relative(repoRoot, serverEntry)}, NODE_ENV=production, APP_URL ${BENCH_APP_URL}, ` +
      `${cfg.workers} worker${cfg.workers === 1 ? '' : 's'}${cfg.workersForA ? ' (BENCH_WORKERS)' : ' (production default: one per core)'}, ` +
      `email to the Resend stub at ${emailStub.url}; B = bench/baseline-server.ts, ${cfg.workers} worker${cfg.workers === 1 ? '' : 's'}`,
  );

  database = await createBenchDatabase(cfg.serverUrl);
  log(`created database ${database.name}`);
  await migrateBenchDatabase(database.url);
  let t = Date.now();
  const counts = await seedBenchDatabase(database.url, size);
  log(
    `seeded in ${((Date.now() - t) / 1000).toFixed(1)} s: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );

  // Discover's own data set: businesses with pins clustered around UK cities and their slots.
  const discoveryBusinesses = Math.max(100, Math.round(DISCOVERY_BUSINESSES * cfg.scale));
  if (cfg.scenarios.has('discovery')) {
    t = Date.now();
    const discovery = await seedDiscoveryData(database.url, discoveryBusinesses, size.customers);
    log(
      `seeded Discover in ${((Date.now() - t) / 1000).toFixed(1)} s: ${Object.entries(discovery)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  }

  // What-if experiments (e.g. a candidate index): applied after seeding, reported with the results.
  if (cfg.extraSql) {
    const extra = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await extra.unsafe(cfg.extraSql);
      await extra.unsafe('analyze');
    } finally {
      await extra.end({ timeout: 2 });
    }
    log(`applied BENCH_EXTRA_SQL (not part of the app's schema): ${cfg.extraSql}`);
  }

  // The baseline must run the app's SQL: capture it from the real services and compare.
  const captured = await captureAppSql(database.url);
  const expected = baselineStatements();
  const drift = (Object.keys(expected) as (keyof typeof expected)[]).filter(
    (k) => JSON.stringify(captured[k]) !== JSON.stringify(expected[k]),
  );
  log(
    drift.length === 0
      ? `baseline SQL: identical to the SQL the app issues (${Object.values(captured).flat().length} statements checked)`
      : `WARNING baseline SQL drift in ${drift.join(', ')}: bench/baseline-sql.ts no longer matches the app (tsx bench/capture-sql.ts <url> prints the app's)`,
  );

  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  // The queued emails are part of what a booking costs, A's and B's alike: each measured run
  // waits (outside the timed load, inside the CPU readings) until they are sent. Polled on its own
  // connection, whose backend is left out of the database CPU.
  const drain = postgres(database.url, { max: 1, onnotice: () => {} });
  const [drainBackend] = await drain<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const drainOutbox = async (kind: TargetKind, label: string) => {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    for (;;) {
      const [row] = await drain<{ n: number }[]>`
        select count(*)::int as n from email_outbox
        where status = 'pending' and last_error is null and send_after <= now()`;
      if (!row?.n) return;
      if (Date.now() > deadline) {
        log(
          `  ${kind} (${label}): ${row.n} emails still queued ${DRAIN_TIMEOUT_MS / 1000} s after the load; measured without them`,
        );
        return;
      }
      await new Promise((res) => setTimeout(res, DRAIN_POLL_MS));
    }
  };
  let run = 0;
  const appErrors: string[] = [];
  const withTarget = async <T>(
    kind: TargetKind,
    label: string,
    fn: (t: RunningTarget) => Promise<T>,
    env?: Record<string, string>,
  ): Promise<T> => {
    // Every target starts with an empty email queue: its mail sender must not spend its measured
    // run on another run's backlog.
    await sql`delete from email_outbox where status = 'pending'`;
    const logFile = path.join(logDir, `${String(++run).padStart(3, '0')}-${kind}-${label.replace(/\W+/g, '_')}.log`);
    const target = await startTarget(kind, {
      repoRoot,
      databaseUrl: database!.url,
      port: cfg.port,
      serverEntry: serverEntry!,
      emailStubUrl: emailStub!.url,
      workers: cfg.workers,
      workersForA: cfg.workersForA,
      logFile,
      // A serves the built client in every run, as production does (and Lighthouse needs it).
      env: {
        ...(kind === 'A' && clientDir
          ? { CLIENT_DIST_DIR: path.join(clientDir, 'client'), SERVER_RENDER_DIR: path.join(clientDir, 'ssr') }
          : {}),
        ...env,
      },
      // Every process of the target (forked workers inherit their primary's flags) writes a
      // profile when it exits; profiling slows it, so such a run's numbers are not comparable.
      nodeFlags: cfg.profileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${path.join(cfg.profileDir, path.basename(logFile, '.log'))}`]
        : [],
    });
    try {
      return await fn(target);
    } finally {
      await target.stop();
      if (kind === 'A') {
        // The app's own account of the run: any warning or error line (a failed email delivery,
        // a tRPC error, a dispatcher failure) is reported.
        const problems = readFileSync(logFile, 'utf8')
          .split('\n')
          .filter((line) => /^\{.*"level":(4|5|6)\d/.test(line));
        for (const line of problems.slice(0, 3)) log(`  A LOG (${label}): ${line.slice(0, 300)}`);
        appErrors.push(...problems);
      }
    }
  };

  // Lighthouse before the load runs, on a fresh A serving the build above (mobile profile).
  let lighthouse: LighthouseResult[] | null = null;
  if (!cfg.skipLighthouse && clientDir) {
    log(`Lighthouse (mobile, ${cfg.lighthouseRuns} runs per page) on A...`);
    lighthouse = await withTarget('A', 'lighthouse', async (target) => {
      const pages = [
        { page: '/{slug}', url: `${target.url}/${businessSlug(1)}` },
        { page: '/', url: `${target.url}/` },
        // Discover around the city with the most seeded businesses after London (its list is full).
        ...(cfg.scenarios.has('discovery')
          ? [{ page: '/discover', url: `${target.url}/discover?place=Manchester&window=tomorrow` }]
          : []),
      ];
      // The first requests of a fresh process (static files, the query) are not what a visitor meets.
      for (const p of pages) await fetch(p.url, { headers: { accept: 'text/html' } });
      await fetch(`${target.url}${batchQueryPath(['businesses.bySlug'], [{ slug: businessSlug(1) }])}`);
      return measureLighthouse(pages, cfg.lighthouseRuns, log);
    });
  }

  const monitor = postgres(databaseUrl(cfg.serverUrl, 'postgres'), { max: 1, onnotice: () => {} });
  const half = Math.floor(size.businesses / 2);
  const publicBusiness = (k: number) => 1 + ((k * 7919) % half);

  // Requestable slots of the booking half (businesses half+1..N), in a fixed shuffled order.
  t = Date.now();
  const pool = (
    await sql<{ id: string }[]>`
      select bench_uuid('slot-' || i || '-' || j)::text as id
      from generate_series(${half + 1}::int, ${size.businesses}::int) i, generate_series(0, ${SLOTS_PER_BUSINESS - 1}) j
      where not (j % 10 = 3 or j % 20 = 7 or j % 40 = 11)
      order by md5(j || '-' || i)`
  ).map((r) => r.id);
  let cursor = 0;
  let bookingChecksOk: boolean | null = null;

  const pageHeaders = { accept: 'text/html', 'accept-encoding': 'gzip' };
  const bySlugCall = (business: number): BenchRequest => ({
    method: 'GET',
    path: batchQueryPath(['businesses.bySlug'], [{ slug: businessSlug(business) }]),
    headers: { accept: '*/*' },
  });
  const pageOf = (business: number): BenchRequest => ({
    method: 'GET',
    path: `/${businessSlug(business)}`,
    headers: pageHeaders,
  });
  const mix = { businesses: size.businesses, ...GROUP_CHAT_MIX, hotShare: cfg.pageHotShare };
  const only200 = (name: string) => async (r: LoadResult) => {
    const bad = Object.keys(r.statuses).filter((s) => s !== '200');
    if (bad.length > 0) log(`  CHECK ${name}: unexpected statuses ${bad.join(', ')}`);
  };

  const scenarios: Scenario[] = [
    {
      // Visitors load the page: A's HTML (gzip, no session); B answers the same page's data.
      name: PUBLIC_PAGE,
      key: 'page',
      prepare: (target) => ({
        next: (i) => {
          const business = visitorBusiness(i, mix);
          return target === 'A'
            ? pageOf(business)
            : { ...bySlugCall(business), headers: { accept: '*/*', 'accept-encoding': 'gzip' } };
        },
        check: only200('public page'),
      }),
    },
    {
      name: 'public data call',
      key: 'public',
      prepare: () => ({ next: (i) => bySlugCall(publicBusiness(i)), check: only200('public data call') }),
    },
    {
      name: 'booking request',
      key: 'booking',
      prepare: (target, label) => {
        // C answers a stored answer whatever the slot: it books nothing, so it takes no slot.
        if (target === 'C') {
          const { path: p, body } = batchMutation('bookings.request', { slotId: pool[0]! });
          const headers = {
            'content-type': 'application/json',
            origin: BENCH_APP_URL,
            cookie: sessionCookie(customerToken(1)),
          };
          return { next: () => ({ method: 'POST', path: p, body, headers }) };
        }
        const fresh: string[] = [];
        let duplicates = 0;
        const next = (i: number): BenchRequest => {
          let slotId: string;
          if (i % 10 === 9 && fresh.length >= 5) {
            slotId = fresh[fresh.length - 5]!;
            duplicates++;
          } else {
            if (cursor >= pool.length)
              throw new Error('booking slot pool exhausted: raise BENCH_SCALE or lower durations');
            slotId = pool[cursor++]!;
            fresh.push(slotId);
          }
          const { path: p, body } = batchMutation('bookings.request', { slotId });
          return {
            method: 'POST',
            path: p,
            body,
            headers: {
              'content-type': 'application/json',
              origin: BENCH_APP_URL,
              cookie: sessionCookie(customerToken(1 + (i % size.customers))),
            },
          };
        };
        const check = async (r: LoadResult) => {
          await new Promise((res) => setTimeout(res, 200));
          const [row] = await sql<
            { n: number }[]
          >`select count(*)::int as n from bookings where slot_id = any(${fresh}::uuid[])`;
          const rows = row?.n ?? 0;
          const ok2xx = r.statuses['200'] ?? 0;
          const conflicts = r.statuses['409'] ?? 0;
          const other = Object.entries(r.statuses).filter(([s]) => s !== '200' && s !== '409');
          const line = `booking rows ${rows} = distinct slots ${fresh.length} = 200s ${ok2xx}; 409s ${conflicts} = duplicates ${duplicates}; other ${other.map(([s, n]) => `${s}:${n}`).join(' ') || 'none'}; errors ${r.errors}`;
          if (label === 'warm-up') {
            // The warm-up runs for a duration, so requests in flight at its end are cut off
            // unanswered: only "never a 5xx" and "no more rows than requests" can be checked.
            const ok = !other.some(([s]) => s.startsWith('5')) && rows >= ok2xx && rows <= fresh.length;
            if (!ok) log(`  WARM-UP CHECK FAILED: ${line}`);
            return;
          }
          const ok =
            other.length === 0 &&
            r.errors === 0 &&
            rows === fresh.length &&
            ok2xx === fresh.length &&
            conflicts === duplicates;
          bookingChecksOk = (bookingChecksOk ?? true) && ok;
          log(`  ${ok ? 'check ok' : 'CHECK FAILED'}: ${line}`);
        };
        return { next, check };
      },
    },
    {
      name: 'dashboard lists',
      key: 'dashboard',
      prepare: () => {
        const p = batchQueryPath(['slots.listMine', 'bookings.requests'], [undefined, undefined]);
        return {
          next: (i) => ({
            method: 'GET',
            path: p,
            headers: { accept: '*/*', cookie: sessionCookie(businessToken(publicBusiness(i))) },
          }),
          check: only200('dashboard'),
        };
      },
    },
    {
      name: 'discovery search',
      key: 'discovery',
      prepare: () => ({
        // A fixed mix of searches (discoverySearches): mostly short windows and soonest first.
        next: (i) => ({
          method: 'GET',
          path: batchQueryPath(['discovery.search'], [searchMix[i % searchMix.length]]),
          headers: { accept: '*/*' },
        }),
        check: only200('discovery'),
      }),
    },
  ];
  const searchMix = discoverySearches(997);

  const rows: Row[] = [];
  // Per tRPC call, the call C answers and B's answer to it, and A's answer to the same call.
  const floorCalls = new Map<string, FloorCall>();
  const appAnswers = new Map<string, string>();
  const rowFor = (scenario: string, mode: string, closedLoop: boolean) => {
    let row = rows.find((r) => r.scenario === scenario && r.mode === mode);
    if (!row) rows.push((row = { scenario, mode, closedLoop, rates: [], A: [], B: [], C: [], CPlain: [] }));
    return row;
  };
  const show = (r: LoadResult) =>
    `${r.rps.toFixed(0)}/s (done ${r.doneRps.toFixed(0)}/s) p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms cpu ${r.cpuPerReq?.toFixed(0) ?? '-'} us/req db ${r.dbCpuPerReq?.toFixed(0) ?? '-'} us/req`;
  const probeOf = (target: RunningTarget, kind: TargetKind, label: string): CpuProbe => ({
    pid: target.pid,
    monitor,
    dbName: database!.name,
    excludePids: drainBackend ? [drainBackend.pid] : [],
    settle: () => drainOutbox(kind, label),
  });

  /**
   * One measured run of `scenario` on a fresh `kind` (`key` names C with plain answers): a
   * closed-loop warm-up, then the closed loop or `rate`/s. After B's closed loop of a tRPC call
   * it keeps B's answer for C (a booking's: a fresh, successful one) and compares A's and B's.
   */
  const runOne = async (
    scenario: Scenario,
    name: string,
    key: keyof typeof TARGET_NAMES,
    closed: boolean,
    rate: number,
  ): Promise<LoadResult> => {
    const kind: TargetKind = key === 'CPlain' ? 'C' : key;
    const label = `${scenario.key} ${closed ? 'closed' : `rate ${rate}/s`}${key === 'CPlain' ? ' plain answers' : ''}`;
    const floorCall = floorCalls.get(scenario.key);
    return withTarget(
      kind,
      label,
      async (target) => {
        const warm = scenario.prepare(kind, 'warm-up');
        // The warm-up is a closed loop for every load shape: a fresh process gets as many
        // requests as it can take before it is measured, so a fixed-rate run measures a warm
        // server (JIT, caches, pools), as a long-running one is, not its first few hundred
        // requests. Every target gets the same warm-up.
        const w = await measure(target.url, { connections: cfg.connections, duration: cfg.warmup }, warm.next);
        await warm.check?.(w);
        const shape: LoadShape = { connections: cfg.connections, duration: cfg.duration, ...(closed ? {} : { rate }) };
        // Bookings run to a fixed count, so every request is answered and the rows can be counted exactly.
        if (scenario.key === 'booking')
          shape.amount = Math.max(100, Math.round((closed ? w.rps : rate) * cfg.duration));
        const s = scenario.prepare(kind, label);
        const r = await measure(target.url, shape, s.next, probeOf(target, kind, label));
        await s.check?.(r);
        if (kind !== 'C' && closed && FLOOR_SCENARIOS.has(scenario.key)) {
          // A booking's answer names its new booking, so A's and B's differ: B books one more
          // slot for C's answer, and nothing is compared.
          const booking = scenario.key === 'booking';
          if (kind === 'B' || !booking) {
            const call = await floorCallOf(
              target.url,
              booking ? scenario.prepare(kind, 'answer for C').next(0) : s.next(0),
            );
            if (kind === 'A') appAnswers.set(scenario.key, call.body);
            else {
              floorCalls.set(scenario.key, call);
              if (!booking) checkSameAnswer(name, appAnswers.get(scenario.key), call.body);
            }
          }
        }
        return r;
      },
      kind === 'C'
        ? { BENCH_FLOOR_CALL: JSON.stringify(floorCall), ...(key === 'CPlain' ? { BENCH_FLOOR_ANSWERS: 'plain' } : {}) }
        : undefined,
    );
  };

  /**
   * The closed loop of `scenario` on A, B and (for a tRPC call) C, then A (and with
   * BENCH_RATE_FLOOR B) at half A's closed-loop done/s of this round; rows named `name`.
   */
  const runScenario = async (scenario: Scenario, name: string, round: number, withRate: boolean) => {
    const closedKeys: (keyof typeof TARGET_NAMES)[] = ['A', 'B'];
    if (FLOOR_SCENARIOS.has(scenario.key))
      closedKeys.push('C', ...(cfg.floorPlainAnswers ? (['CPlain'] as const) : []));
    const closedMode = `closed ${cfg.connections}`;
    let aDone = NaN;
    for (const key of closedKeys) {
      if (key !== 'A' && key !== 'B' && !floorCalls.has(scenario.key)) continue;
      const result = await runOne(scenario, name, key, true, 0);
      if (key === 'A') aDone = result.doneRps;
      rowFor(name, closedMode, true)[key].push(result);
      log(`[round ${round}] ${name}, ${closedMode}, ${TARGET_NAMES[key]}: ${show(result)}`);
    }
    const rate = halfRate(aDone, cfg.rateShare);
    if (!withRate || cfg.rateShare <= 0 || rate <= 0) return;
    const row = rowFor(name, 'half rate', false);
    row.rates.push(rate);
    for (const key of cfg.rateFloor ? (['A', 'B'] as const) : (['A'] as const)) {
      const result = await runOne(scenario, name, key, false, rate);
      row[key].push(result);
      log(`[round ${round}] ${name}, ${rate}/s (${cfg.rateShare} x A's closed loop), ${key}: ${show(result)}`);
    }
  };

  /**
   * A pass over distinct pages on a fresh A (each page once, so no cache keyed by page or by slug
   * hits): a warm-up pass over other pages first, then the measured pass; `request` turns a
   * business number into the page's HTML or its data call.
   */
  const renderPass = async (name: string, request: (business: number) => BenchRequest, round: number) => {
    const warmCount = Math.min(cfg.renderWarmup, Math.floor(size.businesses / 4));
    const warmPages = distinctPass(1, warmCount, warmCount);
    const pages = distinctPass(warmCount + 1, size.businesses, cfg.renderPass);
    const label = name;
    const result = await withTarget('A', label, async (target) => {
      const pass = (list: number[]) => (i: number) => request(list[i % list.length]!);
      const shape = (n: number): LoadShape => ({ connections: cfg.connections, duration: 60, amount: n });
      await measure(target.url, shape(warmPages.length), pass(warmPages));
      const r = await measure(target.url, shape(pages.length), pass(pages), probeOf(target, 'A', label));
      await only200(name)(r);
      return r;
    });
    rowFor(name, `${pages.length} distinct pages`, true).A.push(result);
    log(`[round ${round}] ${name}, ${pages.length} distinct pages, A: ${show(result)}`);
  };

  for (let round = 1; round <= cfg.rounds; round++) {
    for (const scenario of scenarios) {
      // The p99 runs of the scenarios with a p99 budget (not the public data call's).
      const withRate = SCENARIO_BUDGETS[scenario.name]?.p99Ms !== undefined;
      if (cfg.scenarios.has(scenario.key)) await runScenario(scenario, scenario.name, round, withRate);
      if (scenario.key === 'page' && cfg.scenarios.has('render')) {
        await renderPass(RENDER_HTML, pageOf, round);
        await renderPass(RENDER_DATA, bySlugCall, round);
      }
    }
    if (cfg.scenarios.has('live')) {
      for (const kind of ['A', 'B'] as const) {
        const mode = `${cfg.liveSubscribers} SSE, ${cfg.liveRate}/s`;
        const liveOpts = {
          subscribers: cfg.liveSubscribers,
          deliveriesPerSecond: cfg.liveRate,
          duration: cfg.duration,
          businessIds: (i: number) => publicBusiness(i),
          businessUuid: uuidOfBusiness,
        };
        const result = await withTarget(kind, 'live', async (target) => {
          await measureLive(target.url, database!.url, { ...liveOpts, duration: cfg.warmup });
          return measureLive(target.url, database!.url, liveOpts, { pid: target.pid, monitor, dbName: database!.name });
        });
        rowFor(LIVE_UPDATE, mode, false)[kind].push(result);
        log(`[round ${round}] live update, ${mode}, ${kind}: ${show(result)} lost ${result.statuses.lost}`);
      }
    }
  }

  // Discovery on the larger data set: Discover's seed grown to BENCH_DISCOVERY_LARGE times its
  // size (the first businesses stay as they are), then the closed loops of A and B once more.
  const discovery = scenarios.find((x) => x.key === 'discovery')!;
  if (cfg.scenarios.has('discovery') && cfg.discoveryLarge > 1) {
    t = Date.now();
    const large = await seedDiscoveryData(
      database.url,
      Math.round(discoveryBusinesses * cfg.discoveryLarge),
      size.customers,
      discoveryBusinesses + 1,
    );
    log(
      `grew Discover's seed to ${cfg.discoveryLarge}x in ${((Date.now() - t) / 1000).toFixed(1)} s: ${Object.entries(
        large,
      )
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    for (let round = 1; round <= cfg.rounds; round++) {
      for (const key of ['A', 'B'] as const) {
        const mode = `closed ${cfg.connections}`;
        const result = await runOne(discovery, DISCOVERY_LARGE, key, true, 0);
        rowFor(DISCOVERY_LARGE, mode, true)[key].push(result);
        log(`[round ${round}] ${DISCOVERY_LARGE}, ${mode}, ${key}: ${show(result)}`);
      }
    }
  }

  const [outbox] = await sql<{ sent: number; failed: number; errored: number }[]>`
    select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'failed')::int as failed,
      count(*) filter (where last_error is not null)::int as errored
    from email_outbox`;
  const refused = emailStub!.refused();
  const emailLine =
    `Email (to the bench's stub; A through the Resend client in production mode, B with fetch): A ${emailStub!.accepted('A')} ` +
    `and B ${emailStub!.accepted('B')} sent to the stub, ` +
    `${refused.length} other requests${refused.length ? ` (${[...new Set(refused)].join(', ')})` : ''}; outbox: ` +
    `${outbox?.sent ?? 0} sent, ${outbox?.failed ?? 0} failed, ${outbox?.errored ?? 0} with a delivery error. ` +
    `A's log: ${appErrors.length} warning or error lines.`;
  log(emailLine);
  await sql.end({ timeout: 2 });
  await drain.end({ timeout: 2 });
  await monitor.end({ timeout: 2 });

  const when = new Date().toISOString().replace('T', ' ').slice(0, 16);
  const lines = [
    '',
    `## LastSlot bench, ${when} UTC`,
    '',
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, PostgreSQL on 127.0.0.1; ` +
      `scale ${cfg.scale} (${size.businesses} businesses x ${SLOTS_PER_BUSINESS} slots); ${cfg.rounds} rounds (median shown), ` +
      `${cfg.warmup} s warm-up + ${cfg.duration} s per run; A = the app (production build, NODE_ENV=production), B = bare Fastify + postgres.js; ` +
      `${cfg.workers} worker process${cfg.workers === 1 ? '' : 'es'} each; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; total ${((Date.now() - started) / 1000).toFixed(0)} s.` +
      (cfg.extraSql ? ` What-if: BENCH_EXTRA_SQL \`${cfg.extraSql}\` applied after seeding.` : '') +
      (cfg.pageHotShare !== GROUP_CHAT_MIX.hotShare
        ? ` What-if: BENCH_PAGE_HOT_SHARE ${cfg.pageHotShare} (the budget's mix is ${GROUP_CHAT_MIX.hotShare}).`
        : ''),
    '',
    formatSummary(rows),
    '',
    'Every run (median over rounds):',
    '',
    formatTable(rows),
    '',
    emailLine,
    '',
  ];
  if (bundle) {
    lines.push(
      `First load (gzip -9): a page that loads the app at once JS ${kb(bundle.app.js)}, CSS ${kb(bundle.app.css)}; ` +
        `/ and /{slug}, whose app loads at the first interaction, JS ${kb(bundle.atFirstInteraction.js)}, CSS ${kb(bundle.atFirstInteraction.css)} ` +
        `(${bundle.atFirstInteraction.files.map((f) => `${path.basename(f.file)} ${kb(f.bytes)}`).join(', ')}).`,
      '',
    );
  }
  if (lighthouse) {
    lines.push(
      `Lighthouse ${lighthouse.find((r) => r.version)?.version ?? ''}, mobile profile (simulated slow 4G, 4x CPU slowdown), first visit, target A, median of ${cfg.lighthouseRuns} runs:`,
      '',
      formatLighthouse(lighthouse),
      '',
    );
  }
  lines.push(formatVerdicts(verdicts(rows, bundle, bookingChecksOk, lighthouse)), '');
  const text = lines.join('\n');
  log(text);
  mkdirSync(path.join(repoRoot, '.tmp'), { recursive: true });
  const out = path.join(repoRoot, '.tmp', 'bench-last.md');
  writeFileSync(out, text);
  log(`(also written to ${path.relative(repoRoot, out)})`);
}

main()
  .then(() => cleanup())
  .then(() => process.exit(0))
  .catch(async (err) => {
    console.error('bench failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    await cleanup();
    process.exit(1);
  });
