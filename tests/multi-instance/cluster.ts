/**
 * The multi-instance suite's world (docs/decisions/0112), all on loopback and stopped by `stop()`:
 * a fresh PostgreSQL database on the local server, the email provider stub, two instances of the
 * production build (`node dist/server/index.js`: supervisor, 2 HTTP workers, the mail worker), and
 * HAProxy in the foreground running the repository's deploy/haproxy/haproxy.cfg. Clients reach the
 * balancer from their own loopback address (127.0.x.y), so each test is its own client IP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { Agent, fetch as undiciFetch } from 'undici';
import { startEmailStub, STUB_RESEND_KEY, STUB_RESEND_KEY_B, type EmailStub } from '../../bench/targets';
import { openDatabase, type Database } from '../../server/db/client';
import { browserClient } from '../setup/http';
import { childPids, startServerProcess, waitUntil, type ServerProcess } from '../setup/server-process';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ENTRY = path.join(repoRoot, 'dist/server/index.js');
const CONFIG = path.join(repoRoot, 'deploy/haproxy/haproxy.cfg');

/** Where each run records what it started, for the clean-up after the run (global-setup.ts). */
export const RUNS_DIR = path.join(repoRoot, '.tmp/multi-instance-runs');
/** A run's database, its admin URL and its folder (HAProxy's admin socket lives there). */
export interface RunRecord {
  dbName: string;
  adminUrl: string;
  dir: string;
}

/** The public origin the instances are configured with and that clients send as Origin. */
export const APP_URL = 'https://multi.lastslot.test';
/** The address HAProxy connects to the instances from: the instances' TRUST_PROXY. */
export const BALANCER_SOURCE = '127.0.0.2';
/** The per-IP limits the instances run with, small so the suite reaches each. */
export const LIMITS = { mutationsPerMinute: 25, searchesPerMinute: 8, liveStreams: 4, emailRequests: 3 };
/** HAProxy's server names, in the order of the instances. */
export const SERVERS = ['app1', 'app2'] as const;
export type ServerName = (typeof SERVERS)[number];

export interface Cluster {
  /** The balancer's origin, e.g. http://127.0.0.1:3500. */
  url: string;
  /** The instances' own origins (app1, app2). */
  instanceUrls: string[];
  instances: ServerProcess[];
  database: Database;
  stub: EmailStub;
  /** Everything HAProxy printed (its log), for failure messages. */
  balancerOutput(): string;
  /** HAProxy's view of each server: 'UP', 'DOWN', 'UP 1/2', ... (`show stat` on its admin socket). */
  serverStatus(): Promise<Record<string, string>>;
  /** SIGKILLs instance `i`'s whole process tree (its primary and every worker) and waits for the primary's exit. */
  kill(i: number): Promise<void>;
  /** Starts instance `i` again on its port with its environment; resolves once both HTTP workers listen. */
  restart(i: number): Promise<void>;
  stop(): Promise<void>;
}

function instanceEnv(port: number, databaseUrl: string, stubUrl: string, key: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    APP_URL,
    DATABASE_URL: databaseUrl,
    WEB_CONCURRENCY: '2',
    LOG_LEVEL: 'info',
    RESEND_API_KEY: key,
    RESEND_BASE_URL: stubUrl,
    TRUST_PROXY: BALANCER_SOURCE,
    RATE_LIMIT_MUTATIONS_PER_MINUTE: String(LIMITS.mutationsPerMinute),
    RATE_LIMIT_SEARCHES_PER_MINUTE: String(LIMITS.searchesPerMinute),
    RATE_LIMIT_LIVE_STREAMS_PER_IP: String(LIMITS.liveStreams),
    RATE_LIMIT_EMAIL_REQUESTS_PER_IP: String(LIMITS.emailRequests),
  };
}

/** Starts the production build with `env` and waits until both of its HTTP workers listen. */
async function startInstance(env: Record<string, string>): Promise<ServerProcess> {
  // At info level each worker logs 'Server listening', which tells when both serve.
  const proc = await startServerProcess(env, { entry: ENTRY, startTimeoutMs: 300_000 });
  await waitUntil(() => proc.logs.filter((l) => String(l.msg).startsWith('Server listening')).length >= 2, {
    timeoutMs: 120_000,
    message: () => `instance on ${env.PORT}: its two HTTP workers did not both listen:\n${proc.output().slice(-3000)}`,
  });
  return proc;
}

/** `show stat` over HAProxy's admin socket → { server name: status } of the app backend. */
function showStat(socket: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let text = '';
    const conn = createConnection(socket, () => conn.write('show stat\n'));
    conn.setTimeout(5_000, () => conn.destroy(new Error('no answer from the HAProxy admin socket')));
    conn.on('data', (chunk) => (text += chunk.toString()));
    conn.on('error', reject);
    conn.on('close', () => {
      const lines = text.split('\n');
      const header = (lines[0] ?? '').replace(/^# /, '').split(',');
      const col = (name: string) => header.indexOf(name);
      const out: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const f = line.split(',');
        if (f[col('pxname')] === 'lastslot_app' && SERVERS.includes(f[col('svname')] as ServerName))
          out[f[col('svname')]!] = f[col('status')]!;
      }
      resolve(out);
    });
  });
}

/** Starts everything; `portBase` is the balancer's port, the instances take the next two. */
export async function startCluster(portBase: number): Promise<Cluster> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first (npm run test:multi does)`);
  const adminUrl = process.env.MULTI_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `lastslot_multi_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const dir = mkdtempSync(path.join(tmpdir(), 'lastslot-multi-'));
  mkdirSync(RUNS_DIR, { recursive: true });
  const record = path.join(RUNS_DIR, `${dbName}.json`);
  writeFileSync(record, JSON.stringify({ dbName, adminUrl, dir } satisfies RunRecord));
  const started: { instances: (ServerProcess | null)[]; haproxy: ChildProcess | null; stub: EmailStub | null } = {
    instances: [null, null],
    haproxy: null,
    stub: null,
  };
  let database: Database | null = null;
  const stop = async () => {
    process.off('exit', killAll);
    if (running(started.haproxy)) {
      const exited = new Promise((r) => started.haproxy!.once('exit', r));
      started.haproxy.kill('SIGTERM');
      const timer = setTimeout(() => started.haproxy?.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await Promise.all(started.instances.map((p) => p?.stop(10_000)));
    await started.stub?.close();
    await database?.close();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end({ timeout: 5 });
    rmSync(dir, { recursive: true, force: true });
    rmSync(record, { force: true });
  };
  // A run ended from outside (Ctrl-C, a time-out) still leaves no process behind; only processes
  // still running are signalled, so no pid reused by another process is.
  const killAll = () => {
    if (running(started.haproxy)) started.haproxy.kill('SIGKILL');
    for (const p of started.instances)
      if (running(p?.child)) for (const pid of [p.child.pid!, ...childPids(p.child.pid!)]) kill(pid);
  };
  process.once('exit', killAll);

  try {
    await admin.unsafe(`create database ${dbName}`);
    const dbUrl = new URL(adminUrl);
    dbUrl.pathname = `/${dbName}`;
    database = await openDatabase({ url: dbUrl.toString(), max: 4 });
    await database.migrate();
    started.stub = await startEmailStub();
    const ports = [portBase + 1, portBase + 2];
    const envs = ports.map((port, i) =>
      instanceEnv(port, dbUrl.toString(), started.stub!.url, i === 0 ? STUB_RESEND_KEY : STUB_RESEND_KEY_B),
    );
    await Promise.all(envs.map(async (env, i) => (started.instances[i] = await startInstance(env))));

    const socket = path.join(dir, 'haproxy.sock');
    let balancerText = '';
    const haproxy = spawn(process.env.HAPROXY ?? 'haproxy', ['-f', CONFIG, '-db'], {
      env: {
        PATH: process.env.PATH ?? '',
        LASTSLOT_LB_BIND: `127.0.0.1:${portBase}`,
        LASTSLOT_LB_SOURCE: BALANCER_SOURCE,
        LASTSLOT_APP1: `127.0.0.1:${ports[0]}`,
        LASTSLOT_APP2: `127.0.0.1:${ports[1]}`,
        LASTSLOT_LB_STATS: socket,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.haproxy = haproxy;
    haproxy.stdout!.on('data', (c: Buffer) => (balancerText += c.toString()));
    haproxy.stderr!.on('data', (c: Buffer) => (balancerText += c.toString()));
    const serverStatus = () => showStat(socket);
    await waitUntil(
      async () => {
        if (haproxy.exitCode !== null) throw new Error(`HAProxy exited:\n${balancerText}`);
        return Object.values(await serverStatus()).filter((s) => s === 'UP').length === 2;
      },
      {
        timeoutMs: 60_000,
        everyMs: 200,
        message: () => `HAProxy did not see both instances UP:\n${balancerText.slice(-3000)}`,
      },
    );

    return {
      url: `http://127.0.0.1:${portBase}`,
      instanceUrls: ports.map((p) => `http://127.0.0.1:${p}`),
      get instances() {
        return started.instances as ServerProcess[];
      },
      database,
      stub: started.stub,
      balancerOutput: () => balancerText,
      serverStatus,
      async kill(i) {
        const proc = started.instances[i]!;
        const primary = proc.child.pid!;
        for (const pid of [primary, ...childPids(primary)]) kill(pid);
        await proc.exited;
      },
      async restart(i) {
        started.instances[i] = await startInstance(envs[i]!);
      },
      stop,
    };
  } catch (err) {
    killAll();
    await stop().catch(() => {});
    throw err;
  }
}

/** Whether `child` was started and has not exited. */
function running(child: ChildProcess | null | undefined): child is ChildProcess {
  return Boolean(child?.pid) && child!.exitCode === null && child!.signalCode === null;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** A browser-like tRPC client at the balancer (or `baseUrl`) from loopback address `ip`. */
export function clientAt(
  baseUrl: string,
  ip: string,
  options: { timeoutMs?: number; headers?: Record<string, string> } = {},
) {
  const agent = new Agent({ localAddress: ip });
  const boundFetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
  /** Each answer's URL, status and the instance HAProxy names in X-LastSlot-Instance. */
  const answers: { url: string; status: number; instance: string | null }[] = [];
  const c = browserClient(baseUrl, {
    batch: false,
    headers: { origin: APP_URL, ...options.headers },
    timeoutMs: options.timeoutMs,
    fetch: boundFetch,
    onResponse: (res, url) =>
      answers.push({ url, status: res.status, instance: res.headers.get('x-lastslot-instance') }),
  });
  return {
    ...c,
    answers,
    fetch: boundFetch,
    /** The instance that answered the latest request whose URL contains `part`. */
    servedLast: (part: string) => answers.findLast((a) => a.url.includes(part))?.instance ?? null,
    /** Ends the client's connections, streams still open included. */
    close: () => agent.destroy(),
  };
}
