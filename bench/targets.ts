/**
 * Bench targets as child processes (A: the app's production build, B: the baseline server, C: the
 * framework alone), each started fresh, the stub of the email provider A sends to, and CPU-time
 * readings of the targets' process trees and of their PostgreSQL backends from /proc.
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type postgres from 'postgres';
import { viteBuild } from './bundle';
import { BENCH_APP_URL } from './wire';

export type TargetKind = 'A' | 'B' | 'C';

/** A started target. */
export interface RunningTarget {
  kind: TargetKind;
  /** Pid of the target's primary process; its workers are its children. */
  pid: number;
  /** Origin, e.g. http://127.0.0.1:3360. */
  url: string;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s); resolves when it has exited. */
  stop(): Promise<void>;
}

/** How to start the targets. */
export interface TargetOptions {
  repoRoot: string;
  databaseUrl: string;
  /** Port of A; B listens on port + 1, C on port + 2. */
  port: number;
  /** The app's built server (`buildServerForBench`), run by plain node. */
  serverEntry: string;
  /** Base URL of the email provider stub (`startEmailStub`), given to A and B as RESEND_BASE_URL. */
  emailStubUrl: string;
  /**
   * Worker processes of B, and of A when `workersForA` is set (WEB_CONCURRENCY); A otherwise
   * runs production's default, one per core, which the caller passes here for B.
   */
  workers: number;
  workersForA?: boolean;
  /** File that receives the process's stdout and stderr (the app's JSON log for A). */
  logFile: string;
  /** Extra environment (e.g. BENCH_BASELINE_PREPARE for B). */
  env?: Record<string, string>;
  /** Node flags before the entry (e.g. `--cpu-prof`, which NODE_OPTIONS does not allow). */
  nodeFlags?: string[];
}

const live = new Set<ChildProcess>();

/** The Resend API key A is given: production demands one; only the stub ever sees it. */
export const STUB_RESEND_KEY = 're_bench_stub_key';
/** B's key for the same stub, so the stub counts each target's emails apart. */
export const STUB_RESEND_KEY_B = 're_bench_stub_key_b';

/**
 * Environment of target A: the production build in production mode (NODE_ENV=production, the
 * https APP_URL the load generator sends as Origin, secure cookies, HSTS), real cookie sessions,
 * the CSRF Origin check, the mutation, search and live-stream limits (set high enough never to refuse the bench;
 * counted per client address, which the bench sends as a trusted proxy would),
 * pino logging at info (one JSON line per request into the log file), and the mail dispatcher
 * sending through the Resend client to the bench's stub (RESEND_BASE_URL). Workers: production's
 * default (one per core) unless `workersForA`.
 */
export function appEnv(opts: TargetOptions): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(opts.port),
    APP_URL: BENCH_APP_URL,
    DATABASE_URL: opts.databaseUrl,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    RESEND_API_KEY: STUB_RESEND_KEY,
    RESEND_BASE_URL: opts.emailStubUrl,
    STRIPE_SECRET_KEY: '',
    RATE_LIMIT_MUTATIONS_PER_MINUTE: '1000000',
    RATE_LIMIT_SEARCHES_PER_MINUTE: '1000000',
    // The live-update bench opens hundreds of streams from one address.
    RATE_LIMIT_LIVE_STREAMS_PER_IP: '1000000',
    // The bench stands in for the load balancer: A takes each request's client address from its
    // X-Forwarded-For (bench/wire.ts clientAddress), as behind HAProxy.
    TRUST_PROXY: '127.0.0.1',
    ...(opts.workersForA ? { WEB_CONCURRENCY: String(opts.workers) } : {}),
  };
}

/**
 * Starts target `kind`: A as `node <serverEntry>` (the built JavaScript, no loader), B as
 * `node --import tsx bench/baseline-server.ts` and C as `node --import tsx
 * bench/framework-floor-server.ts` (it needs BENCH_FLOOR_CALL in `opts.env`), with `workers`
 * processes; the pid is the primary either way (never an npm or tsx wrapper), whose workers
 * `processCpuMicros` adds. Resolves once GET /healthz answers 200 and every worker has logged that
 * it listens, or rejects after 120 s (a loaded shared machine can take a minute) with the log's tail.
 */
export async function startTarget(kind: TargetKind, opts: TargetOptions): Promise<RunningTarget> {
  const port = opts.port + { A: 0, B: 1, C: 2 }[kind];
  const script = { A: opts.serverEntry, B: 'bench/baseline-server.ts', C: 'bench/framework-floor-server.ts' }[kind];
  const args = [...(opts.nodeFlags ?? []), ...(kind === 'A' ? [script] : ['--import', 'tsx', script])];
  const env =
    kind === 'A'
      ? appEnv(opts)
      : kind === 'C'
        ? { NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), WEB_CONCURRENCY: String(opts.workers) }
        : {
            // Production mode for the libraries B shares with A (React renders the emails).
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            APP_URL: BENCH_APP_URL,
            DATABASE_URL: opts.databaseUrl,
            WEB_CONCURRENCY: String(opts.workers),
            RESEND_API_KEY: STUB_RESEND_KEY_B,
            RESEND_BASE_URL: opts.emailStubUrl,
          };
  const out = openSync(opts.logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd: opts.repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, ...opts.env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      // Healthy, and every worker listening (each logs it), so no start-up lands in a measurement.
      const res = await fetch(`${url}/healthz`);
      if (res.ok && listeningWorkers(opts.logFile) >= opts.workers) return { kind, pid: child.pid!, url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  const tail = readFileSync(opts.logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`target ${kind} (${args.join(' ')}) did not become healthy:\n${tail}`);
}

/** Workers that logged that they listen: the app's pino line, or the baseline's. */
function listeningWorkers(logFile: string): number {
  return (
    readFileSync(logFile, 'utf8').match(/"msg":"Server listening at |^(baseline|framework floor) worker listening/gm)
      ?.length ?? 0
  );
}

/**
 * Builds the app's server as production does (`vite build --config vite.server.config.ts`,
 * docs/decisions/0042) into .tmp/bench-server-<pid>/ (never dist/server, which `npm run serve` may
 * be using) and returns the entry file; remove the folder with `removeBuild(path.dirname(entry))`.
 */
export function buildServerForBench(repoRoot: string): string {
  const outDir = path.join(repoRoot, '.tmp', `bench-server-${process.pid}`);
  viteBuild(repoRoot, outDir, ['--config', 'vite.server.config.ts']);
  return path.join(outDir, 'index.js');
}

/** The stub of the email provider: what A's and B's mail senders sent and what else reached it. */
export interface EmailStub {
  /** Base URL for RESEND_BASE_URL, e.g. http://127.0.0.1:41234. */
  url: string;
  /**
   * Emails accepted from `kind` (each email of POST /emails or /emails/batch with that target's
   * stub key and a from, to and subject).
   */
  accepted(kind: 'A' | 'B'): number;
  /** Recipients of the emails accepted from `kind`, one entry per email, in arrival order. */
  recipients(kind: 'A' | 'B'): string[];
  /** Any other request (another path, a wrong key, a malformed body), each answered 4xx. */
  refused(): string[];
  close(): Promise<void>;
}

/**
 * Starts a local HTTP server answering the part of Resend's API the app calls, with
 * `Authorization: Bearer <key>` and a JSON body, as Resend does, so production's mail path runs
 * without a network or an account: `emails.send` (POST /emails, one email: 200 `{ id }`) and
 * `batch.send` (POST /emails/batch, an array of up to 100 emails without attachments: 200
 * `{ data: [{ id }, ...] }` for the emails taken, in order; with `x-batch-validation: permissive`
 * an invalid email is left out and listed in `errors: [{ index, message }]`, otherwise it fails
 * the batch with 422). Each email taken counts as accepted from the target whose key
 * (STUB_RESEND_KEY for A, STUB_RESEND_KEY_B for B) the request carried. Listens on an ephemeral
 * port of 127.0.0.1.
 */
export async function startEmailStub(): Promise<EmailStub> {
  const count = { A: 0, B: 0 };
  const recipients: Record<'A' | 'B', string[]> = { A: [], B: [] };
  const recipient = (email: unknown) => String((email as { to?: unknown }).to);
  let accepted = 0;
  const refused: string[] = [];
  const valid = (email: unknown) => {
    const e = (email ?? {}) as { from?: unknown; to?: unknown; subject?: unknown; attachments?: unknown };
    return typeof e.from === 'string' && e.to !== undefined && typeof e.subject === 'string';
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const refuse = () => {
        refused.push(`${req.method} ${req.url}`);
        answer(422, { name: 'validation_error', statusCode: 422, message: 'refused by the bench stub' });
      };
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        return refuse();
      }
      const kind =
        req.headers.authorization === `Bearer ${STUB_RESEND_KEY}`
          ? 'A'
          : req.headers.authorization === `Bearer ${STUB_RESEND_KEY_B}`
            ? 'B'
            : null;
      if (req.method !== 'POST' || !kind) return refuse();
      if (req.url === '/emails') {
        if (!valid(body)) return refuse();
        accepted++;
        count[kind]++;
        recipients[kind].push(recipient(body));
        return answer(200, { id: `bench-${accepted}` });
      }
      if (req.url !== '/emails/batch' || !Array.isArray(body) || body.length === 0 || body.length > 100)
        return refuse();
      const permissive = req.headers['x-batch-validation'] === 'permissive';
      const bad = body.flatMap((email, index) =>
        valid(email) && (email as { attachments?: unknown }).attachments === undefined ? [] : [index],
      );
      if (bad.length > 0 && !permissive) return refuse();
      const data: { id: string }[] = [];
      for (const [index] of body.entries()) {
        if (bad.includes(index)) {
          refused.push(`${req.method} ${req.url} [${index}]`);
          continue;
        }
        accepted++;
        count[kind]++;
        recipients[kind].push(recipient(body[index]));
        data.push({ id: `bench-${accepted}` });
      }
      const errors = bad.map((index) => ({ index, message: 'refused by the bench stub' }));
      return answer(200, permissive ? { data, errors } : { data });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: (kind) => count[kind],
    recipients: (kind) => [...recipients[kind]],
    refused: () => [...refused],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Kills every target still running (SIGKILL, by pid). For the exit path. */
export function killAllTargets(): void {
  for (const child of live) child.kill('SIGKILL');
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * User + system CPU time of process `pid` and all its descendants (a target's primary, its
 * workers and any helper they run) in microseconds, from /proc; null when `pid` is gone.
 */
export function processCpuMicros(pid: number): number | null {
  const own = ownCpuMicros(pid);
  if (own === null) return null;
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (!fields) continue;
    const ppid = Number(fields[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  let sum = own;
  const stack = [...(children.get(pid) ?? [])];
  while (stack.length > 0) {
    const child = stack.pop()!;
    sum += ownCpuMicros(child) ?? 0;
    stack.push(...(children.get(child) ?? []));
  }
  return sum;
}

/** The fields of /proc/<pid>/stat after the command name (state first), or null. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function ownCpuMicros(pid: number): number | null {
  const fields = statFields(pid);
  if (!fields) return null;
  // After the comm field: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / clockTicks();
}

/**
 * CPU readings of the PostgreSQL backends serving database `dbName` (found through
 * pg_stat_activity on `monitor`, a connection to another database), excluding `excludePids`.
 * Returns pid → CPU microseconds.
 */
export async function backendCpu(
  monitor: postgres.Sql,
  dbName: string,
  excludePids: number[] = [],
): Promise<Map<number, number>> {
  const rows = await monitor<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${dbName}`;
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    if (excludePids.includes(pid)) continue;
    const cpu = ownCpuMicros(pid);
    if (cpu !== null) out.set(pid, cpu);
  }
  return out;
}

/** CPU microseconds the backends used between two `backendCpu` readings (new backends count fully). */
export function backendCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

/** Absolute path of the repository root (the folder above bench/). */
export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
