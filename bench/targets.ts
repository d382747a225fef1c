/**
 * Bench targets as child processes (A: the app, B: the baseline server), each started fresh, and
 * CPU-time readings of them and of their PostgreSQL backends from /proc.
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type postgres from 'postgres';

export type TargetKind = 'A' | 'B';

/** A started target. */
export interface RunningTarget {
  kind: TargetKind;
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
  /** Port of A; B listens on port + 1. */
  port: number;
  /** File that receives the process's stdout and stderr (the app's JSON log for A). */
  logFile: string;
  /** Extra environment (e.g. BENCH_BASELINE_PREPARE for B). */
  env?: Record<string, string>;
}

const live = new Set<ChildProcess>();

/**
 * Environment of target A: the real server with real cookie sessions, the CSRF Origin check, the
 * mutation rate limiter (set high enough never to refuse the bench) and pino logging at info
 * (Fastify's per-request lines, JSON because stdout is a file). NODE_ENV=development, because
 * production demands an https APP_URL and a Resend key (server/core/env.ts), which would make the mail
 * dispatcher call the real Resend API; nothing on the request paths measured depends on NODE_ENV.
 */
export function appEnv(opts: TargetOptions): Record<string, string> {
  return {
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(opts.port),
    APP_URL: `http://127.0.0.1:${opts.port}`,
    DATABASE_URL: opts.databaseUrl,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    RESEND_API_KEY: '',
    STRIPE_SECRET_KEY: '',
    RATE_LIMIT_MUTATIONS_PER_MINUTE: '1000000',
    TRUST_PROXY: 'false',
    // One worker under the supervisor (docs/decisions/0028), like the bare floor's one process.
    WEB_CONCURRENCY: '1',
  };
}

/**
 * Starts target `kind` as `node --import tsx <entry>` (so the pid is the server itself, not a tsx
 * wrapper; for the app, the supervisor's primary, whose worker `processCpuMicros` adds) and resolves once GET /healthz answers 200, or rejects after 60 s with the log's tail.
 */
export async function startTarget(kind: TargetKind, opts: TargetOptions): Promise<RunningTarget> {
  const port = kind === 'A' ? opts.port : opts.port + 1;
  const entry = kind === 'A' ? 'server/index.ts' : 'bench/baseline-server.ts';
  const env =
    kind === 'A'
      ? appEnv(opts)
      : { HOST: '127.0.0.1', PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, DATABASE_URL: opts.databaseUrl };
  const out = openSync(opts.logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
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
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return { kind, pid: child.pid!, url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  const tail = readFileSync(opts.logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`target ${kind} (${entry}) did not become healthy:\n${tail}`);
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

/** User + system CPU time of process `pid` and its child processes in microseconds (from /proc), or null. */
export function processCpuMicros(pid: number): number | null {
  const own = ownCpuMicros(pid);
  if (own === null) return null;
  // The app's pid is the supervisor's primary (docs/decisions/0028): add its live workers.
  let sum = own;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === pid) sum += ownCpuMicros(Number(entry)) ?? 0;
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
    const cpu = processCpuMicros(pid);
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
