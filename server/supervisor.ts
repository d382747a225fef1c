/**
 * The primary process's supervisor (docs/decisions/0028): runs `count` HTTP workers with
 * node:cluster (they share the listening port), replaces a worker that dies, and on SIGTERM /
 * SIGINT asks every worker to shut down gracefully before exiting itself.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** A worker still starting that has not shut down within this time after SIGTERM is killed. */
const SHUTDOWN_GRACE_MS = 15_000;
/** Replacement delay for a worker that died before it ever listened (a crash loop at start-up). */
const START_FAILURE_DELAY_MS = 1_000;

export interface Supervisor {
  /** Pids of the live workers. */
  pids(): number[];
  /** Stops every worker (SIGTERM, then SIGKILL after the grace period); resolves when all exited. */
  stop(reason: string): Promise<void>;
}

/**
 * Forks `count` workers running this same entry file. `onListening` runs once, when the first
 * worker accepts connections. A worker that exits while the supervisor is not stopping is logged
 * and replaced at once (after 1 s when it died before listening, so a broken start does not spin).
 */
export function superviseWorkers(params: { count: number; logger: Logger; onListening?: () => void }): Supervisor {
  const { count, logger } = params;
  const listened = new WeakSet<Worker>();
  let stopping: Promise<void> | null = null;
  let announced = false;

  const fork = () => {
    const worker = cluster.fork();
    logger.info({ workerPid: worker.process.pid }, 'worker started');
    return worker;
  };

  cluster.on('listening', (worker) => {
    listened.add(worker);
    if (!announced) {
      announced = true;
      params.onListening?.();
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const everListened = listened.has(worker);
    const replace = () => {
      if (stopping) return;
      const replacement = fork();
      logger.warn(
        { workerPid: worker.process.pid, code, signal, replacementPid: replacement.process.pid },
        'worker died; replaced',
      );
    };
    if (everListened) replace();
    else {
      logger.error(
        { workerPid: worker.process.pid, code, signal },
        `worker died while starting; replacing it in ${START_FAILURE_DELAY_MS} ms`,
      );
      setTimeout(replace, START_FAILURE_DELAY_MS);
    }
  });

  for (let i = 0; i < count; i++) fork();

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
