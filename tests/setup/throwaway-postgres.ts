/**
 * A throw-away PostgreSQL cluster for fault tests: initdb + pg_ctl from /usr/lib/postgresql/<v>/bin
 * in a temporary folder, on its own port, with its own unix socket folder; never the machine's
 * shared server. Run as root, the binaries run as the `postgres` user (initdb refuses root).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export interface ThrowawayPostgres {
  /** Superuser URL of database `lastslot` (created empty). */
  url: string;
  /** Superuser URL of the `postgres` maintenance database (for pg_terminate_backend and checks). */
  adminUrl: string;
  port: number;
  /** `pg_ctl restart -m fast`: every backend is terminated; resolves when the server accepts again. */
  restart(): Promise<void>;
  /** Stops the cluster at once and deletes its folder. */
  destroy(): void;
}

/** The newest PostgreSQL bin folder with initdb and pg_ctl, or null. */
function findBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** Why the fault tests cannot run here, or null when they can. */
export function throwawayPostgresUnavailable(): string | null {
  if (!findBinaries()) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin';
  if (process.getuid?.() === 0) {
    try {
      userInfo();
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root and there is no postgres user to run initdb as';
    }
  }
  return null;
}

/** Starts a cluster on `port` (pick a free one). Throws when the binaries are missing. */
export function startThrowawayPostgres(port: number): ThrowawayPostgres {
  const bin = findBinaries();
  if (!bin) throw new Error('PostgreSQL binaries not found');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'lastslot-faults-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const command = (tool: string, args: string[]): [string, string[]] => {
    const cmd = path.join(bin, tool);
    return asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  };
  const run = (tool: string, args: string[]) => {
    const [file, argv] = command(tool, args);
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  };
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  run('pg_ctl', ['-D', data, '-l', log, '-o', opts, '-w', '-t', '60', 'start']);
  run('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-qc', 'create database lastslot']);
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/lastslot`,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      const [file, argv] = command('pg_ctl', [
        '-D',
        data,
        '-l',
        log,
        '-o',
        opts,
        '-m',
        'fast',
        '-w',
        '-t',
        '60',
        'restart',
      ]);
      await promisify(execFile)(file, argv, { cwd: dir });
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
