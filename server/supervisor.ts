/**
 * The primary process's supervisor (docs/decisions/0028): runs `count` HTTP workers with
 * node:cluster (they share the listening port) and, with `mailWorker`, one mail worker that sends
 * the outbox (docs/decisions/0064); replaces a worker that dies, relays the HTTP workers' outbox
 * kicks to the mail worker, and on SIGTERM / SIGINT asks every worker to shut down gracefully
 * before exiting itself.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** A worker still starting that has not shut down within this time after SIGTERM is killed. */
const SHUTDOWN_GRACE_MS = 15_000;
/** Replacement delay for a worker that died before it was ever ready (a crash loop at start-up). */
const START_FAILURE_DELAY_MS = 1_000;

/**
 * What a worker process runs, from the environment the primary forks it with: 'http' serves
 * requests; 'http-remote-mail' serves requests and leaves the outbox to the mail worker; 'mail'
 * only sends the outbox. Unset (a process started without the supervisor): 'http'.
 */
export type WorkerRole = 'http' | 'http-remote-mail' | 'mail';
export const WORKER_ROLE_ENV = 'LASTSLOT_WORKER_ROLE';

/** The role this worker process was forked with. */
export function workerRole(): WorkerRole {
  const role = process.env[WORKER_ROLE_ENV];
  return role === 'mail' || role === 'http-remote-mail' ? role : 'http';
}

/** Messages between the workers and the primary (node:cluster IPC). */
const OUTBOX_KICK = 'outbox-kick';
const MAIL_READY = 'mail-ready';
const isMessage = (msg: unknown, type: string) =>
  typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === type;

let kickPending = false;
/**
 * In an HTTP worker: asks the mail worker (through the primary) for an outbox run now. Kicks in
 * the same event-loop turn are sent as one message. Without an IPC channel it does nothing: the
 * mail worker's interval still finds the message.
 */
export function kickMailWorker(): void {
  if (kickPending || !process.send) return;
  kickPending = true;
  setImmediate(() => {
    kickPending = false;
    if (process.connected) process.send?.({ type: OUTBOX_KICK });
  });
}

/**
 * In the mail worker: calls `kick` for every outbox kick the primary relays, and tells the
 * primary the worker is ready (so a later death is replaced at once, not as a start-up failure).
 */
export function serveMailWorker(kick: () => void): void {
  process.on('message', (msg) => {
    if (isMessage(msg, OUTBOX_KICK)) kick();
  });
  process.send?.({ type: MAIL_READY });
}

export interface Supervisor {
  /** Pids of the live workers (the mail worker's included). */
  pids(): number[];
  /** Stops every worker (SIGTERM, then SIGKILL after the grace period); resolves when all exited. */
  stop(reason: string): Promise<void>;
}

/**
 * Forks `count` HTTP workers running this same entry file, and one mail worker when `mailWorker`
 * (the HTTP workers then leave the outbox to it). `onListening` runs once, when the first worker
 * accepts connections. A worker that exits while the supervisor is not stopping is logged and
 * replaced by one of the same role at once (after 1 s when it died before it was ready: listening,
 * or for the mail worker its ready message; so a broken start does not spin).
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
