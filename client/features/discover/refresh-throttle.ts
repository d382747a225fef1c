/** How often an open Discover list searches again, and how much of it (docs/decisions/0094). */

/**
 * An infinite query's data cut back to its first page, so refetching it searches that page alone;
 * unchanged (the same object) when it holds one page or none.
 */
export function firstPageOnly<T extends { pages: unknown[]; pageParams: unknown[] }>(
  data: T | undefined,
): T | undefined {
  if (!data || data.pages.length <= 1) return data;
  return { ...data, pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) };
}

/** A throttled action: `call` asks for it, `cancel` drops what is waiting (on unmount or a new search). */
export interface Throttled {
  call: () => void;
  cancel: () => void;
}

/**
 * Runs `run` at most once per `ms` (milliseconds): the first call at once (leading edge); the calls
 * within the next `ms` are gathered into one run when it ends, which starts the next `ms`.
 */
export function leadingThrottle(run: () => void, ms: number): Throttled {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting = false;
  const rest = () => {
    timer = setTimeout(() => {
      timer = undefined;
      if (!waiting) return;
      waiting = false;
      run();
      rest();
    }, ms);
  };
  return {
    call() {
      if (timer !== undefined) {
        waiting = true;
        return;
      }
      run();
      rest();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      waiting = false;
    },
  };
}
