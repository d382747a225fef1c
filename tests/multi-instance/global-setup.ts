/**
 * The multi-instance suite's safety net, in vitest's main process: after the run, whatever a test
 * worker that was ended early left behind (its instances, their workers, HAProxy, the database) is
 * stopped and dropped. Each run records its database and folder in RUNS_DIR (cluster.ts); a process
 * is ours when its environment names that database or that folder's admin socket.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { RUNS_DIR, type RunRecord } from './cluster';

/** Pids of the processes whose environment contains one of `marks`. */
function processesMarked(marks: string[]): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environ.some((e) => marks.some((m) => e.includes(m)))) out.push(Number(entry));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

export default function setup() {
  return async () => {
    let files: string[] = [];
    try {
      files = readdirSync(RUNS_DIR).filter((f) => f.endsWith('.json'));
    } catch {
      return;
    }
    for (const file of files) {
      const full = path.join(RUNS_DIR, file);
      const run = JSON.parse(readFileSync(full, 'utf8')) as RunRecord;
      for (const pid of processesMarked([`/${run.dbName}`, run.dir])) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      const admin = postgres(run.adminUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${run.dbName} with (force)`).catch(() => {});
      await admin.end({ timeout: 5 });
      rmSync(full, { force: true });
    }
  };
}
