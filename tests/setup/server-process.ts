/**
 * The real server (`node --import tsx server/index.ts`: the supervisor and its workers, from the
 * TypeScript sources; or a built `dist/server/index.js`) as a child process, for tests about
 * processes: worker replacement, shutdown, database faults, the server build. Its JSON log lines
 * are collected; helpers wait for conditions (a log line, /healthz) with a deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One line the server printed: its JSON log record, or `{ msg: line }` for plain text. */
export type LogLine = Record<string, unknown> & { msg?: string };

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  logs: LogLine[];
  /** Everything printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`). Returns the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `check` every `everyMs` until it returns a truthy value; throws `message()` after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  { timeoutMs, everyMs = 50, message }: { timeoutMs: number; everyMs?: number; message: () => string },
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** GET /healthz; true on 200. */
export async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Pids of the direct children of `pid` that run Node (the supervisor's workers), read from /proc.
 * Other children are not counted: tsx compiles files missing from its cache through an esbuild
 * service process, which the supervisor then holds as a child besides its workers.
 */
export function childPids(pid: number): number[] {
  const node = realpathSync(process.execPath);
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command: state, ppid, ...
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && readlinkSync(`/proc/${entry}/exe`) === node) out.push(Number(entry));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out.sort((a, b) => a - b);
}

/** The role a supervisor's worker was forked with (its LASTSLOT_WORKER_ROLE), or null. */
export function workerRoleOf(pid: number): string | null {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith('LASTSLOT_WORKER_ROLE='));
    return entry ? entry.slice(entry.indexOf('=') + 1) : null;
  } catch {
    return null;
  }
}

/** Whether process `pid` is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the server with `env` on top of a clean environment (no inherited DATABASE_URL or
 * TEST_DATABASE_URL) and waits until /healthz answers 200 (`startTimeoutMs`, default 180 s: the
 * first start compiles the TypeScript). `entry`: a built server's JavaScript file to run with
 * plain node instead of the sources under tsx.
 */
export async function startServerProcess(
  env: Record<string, string>,
  { startTimeoutMs = 180_000, entry }: { startTimeoutMs?: number; entry?: string } = {},
): Promise<ServerProcess> {
  const port = env.PORT ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.TEST_DATABASE_URL;
  const child = spawn(process.execPath, entry ? [entry] : ['--import', 'tsx', 'server/index.ts'], {
    cwd: repoRoot,
    env: {
      ...base,
      HOST: '127.0.0.1',
      PORT: port,
      APP_URL: url,
      RESEND_API_KEY: '',
      SEED_DEMO: 'false',
      NODE_ENV: 'development',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  let text = '';
  const collect = (chunk: Buffer) => {
    const s = chunk.toString();
    text += s;
    for (const line of s.split('\n')) {
      if (!line.trim()) continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ msg: line });
      }
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: ServerProcess = {
    url,
    child,
    logs,
    output: () => text,
    exited,
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  const exitedEarly = exited.then((code) =>
    Promise.reject(new Error(`server exited (code ${code}) before it was healthy:\n${text}`)),
  );
  exitedEarly.catch(() => {});
  try {
    await Promise.race([
      exitedEarly,
      waitUntil(() => healthy(url), {
        timeoutMs: startTimeoutMs,
        everyMs: 200,
        message: () => `server did not become healthy:\n${text}`,
      }),
    ]);
  } catch (err) {
    await proc.stop(1_000);
    throw err;
  }
  return proc;
}
