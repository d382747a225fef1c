/**
 * The app's first render waits for the router's first load of the current location (bounded), so
 * it renders the whole page once, as an interruptible transition, instead of a shell followed by
 * a synchronous render of the page (docs/decisions/0062-first-render-after-first-load.md).
 */

/**
 * Calls `render` exactly once: when `firstLoad` settles (resolved or rejected: the router then
 * shows its error screen) or after `waitMs` milliseconds, whichever comes first, so a slow loader
 * never holds the first paint back longer than the router's pending delay.
 */
export function renderAfterFirstLoad(firstLoad: Promise<unknown>, waitMs: number, render: () => void): void {
  let rendered = false;
  const once = () => {
    if (rendered) return;
    rendered = true;
    clearTimeout(timer);
    render();
  };
  const timer = setTimeout(once, waitMs);
  firstLoad.then(once, once);
}
