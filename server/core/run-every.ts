import type { Logger } from 'pino';

/** A running series of passes; `stop()` resolves once the pass under way has ended. */
export interface Passes {
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` (ms) until `stop()`, and once at the start when `atStart`, never two
 * at once: a tick that finds a pass under way is skipped. A failed pass is logged with `failure` as
 * its message.
 */
export function runEvery(
  pass: () => Promise<unknown>,
  options: { intervalMs: number; logger: Logger; failure: string; atStart?: boolean },
): Passes {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = pass()
      .then(() => undefined)
      .catch((err: unknown) => options.logger.error({ err }, options.failure))
      .finally(() => {
        running = null;
      });
  };
  if (options.atStart) tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
