/** The primary process's supervisor of HTTP and mail workers (docs/decisions/0028, 0064). */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** A worker that has not exited this long after SIGTERM is killed. */
const SHUTDOWN_GRACE_MS = 15_000;
/** Replacement delay for a worker that died before it was ever ready, so a broken start does not spin. */
const START_FAILURE_DELAY_MS = 1_000;

/** What a worker runs: 'http-remote-mail' leaves the outbox to the 'mail' worker. Unset: 'http'. */
export type WorkerRole = 'http' | 'http-remote-mail' | 'mail';
export const WORKER_ROLE_ENV = 'LASTSLOT_WORKER_ROLE';

/** The role this worker process was forked with (WORKER_ROLE_ENV). */
export function workerRole(): WorkerRole {
  const role = process.env[WORKER_ROLE_ENV];
  return role === 'mail' || role === 'http-remote-mail' ? role : 'http';
}

/** node:cluster IPC message types. */
const OUTBOX_KICK = 'outbox-kick';
const MAIL_READY = 'mail-ready';
const isMessage = (msg: unknown, type: string) =>
  typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === type;

let kickPending = false;
/**
 * In an HTTP worker: asks the mail worker, through the primary, for an outbox run now; kicks in one
 * event-loop turn are sent once. Without IPC it does nothing: the mail worker's interval finds the mail.
 */
export function kickMailWorker(): void {
  if (kickPending || !process.send) return;
  kickPending = true;
  setImmediate(() => {
    kickPending = false;
    if (process.connected) process.send?.({ type: OUTBOX_KICK });
  });
}

/** In the mail worker: calls `kick` per relayed kick; reports ready, so a later death is not a start-up failure. */
export function serveMailWorker(kick: () => void): void {
  process.on('message', (msg) => {
    if (isMessage(msg, OUTBOX_KICK)) kick();
  });
  process.send?.({ type: MAIL_READY });
}

export interface Supervisor {
  /** Pids of the live workers, the mail worker's included. */
  pids(): number[];
  /** Stops every worker (SIGTERM, then SIGKILL after the grace period); resolves when all exited. */
  stop(reason: string): Promise<void>;
}

/**
 * Forks `count` HTTP workers running this entry file, plus a mail worker when `mailWorker`.
 * `onListening` runs once, when the first worker listens. A worker that dies is replaced by one of its
 * role, after START_FAILURE_DELAY_MS if it died before it was ready.
 */
export function superviseWorkers(params: {
  count: number;
  mailWorker?: boolean;
  logger: Logger;
  onListening?: () => void;
}): Supervisor {
  const { count, logger } = params;
  const ready = new WeakSet<Worker>();
  const roles = new WeakMap<Worker, WorkerRole>();
  let mail: Worker | null = null;
  let stopping: Promise<void> | null = null;
  let announced = false;
  const httpRole: WorkerRole = params.mailWorker ? 'http-remote-mail' : 'http';

  const fork = (role: WorkerRole) => {
    const worker = cluster.fork({ [WORKER_ROLE_ENV]: role });
    roles.set(worker, role);
    if (role === 'mail') mail = worker;
    logger.info({ workerPid: worker.process.pid, role }, 'worker started');
    return worker;
  };

  cluster.on('listening', (worker) => {
    ready.add(worker);
    if (!announced) {
      announced = true;
      params.onListening?.();
    }
  });

  cluster.on('message', (worker, msg) => {
    if (isMessage(msg, MAIL_READY)) ready.add(worker);
    else if (isMessage(msg, OUTBOX_KICK) && mail && !mail.isDead() && mail.isConnected()) mail.send(msg);
  });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const role = roles.get(worker) ?? httpRole;
    if (worker === mail) mail = null;
    const wasReady = ready.has(worker);
    const replace = () => {
      if (stopping) return;
      const replacement = fork(role);
      logger.warn(
        { workerPid: worker.process.pid, role, code, signal, replacementPid: replacement.process.pid },
        'worker died; replaced',
      );
    };
    if (wasReady) replace();
    else {
      logger.error(
        { workerPid: worker.process.pid, role, code, signal },
        `worker died while starting; replacing it in ${START_FAILURE_DELAY_MS} ms`,
      );
      setTimeout(replace, START_FAILURE_DELAY_MS);
    }
  });

  for (let i = 0; i < count; i++) fork(httpRole);
  if (params.mailWorker) fork('mail');

  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w && !w.isDead()));

  return {
    pids: () => live().map((w) => w.process.pid!),
    stop(reason) {
      stopping ??= new Promise<void>((resolve) => {
        const workers = live();
        logger.info({ reason, workers: workers.length }, 'stopping workers');
        if (workers.length === 0) return resolve();
        let left = workers.length;
        const kill = setTimeout(() => {
          for (const w of live()) {
            logger.warn({ workerPid: w.process.pid }, 'worker did not stop in time; killing it');
            w.process.kill('SIGKILL');
          }
        }, SHUTDOWN_GRACE_MS);
        for (const w of workers) {
          w.once('exit', () => {
            if (--left === 0) {
              clearTimeout(kill);
              resolve();
            }
          });
          w.process.kill('SIGTERM');
        }
      });
      return stopping;
    },
  };
}
