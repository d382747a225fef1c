/**
 * A slow phone for the journeys that act before the app runs (tap-before-start.spec.ts,
 * input-before-start.spec.ts): the CPU throttled 6x and the app's script held back until the test
 * lets it through, so every tap and keystroke lands before the app runs, whatever the machine.
 */
import type { Page, Request } from '@playwright/test';
import { expect } from './fixtures';
import { signIn, type BusinessAccount, type CustomerAccount, type OpenOptions } from './helpers';
import { unlessTornDown } from './trpc-stubs';

/** How long the app may take to hydrate a page on a CPU throttled 6x, once its script has come. */
export const HYDRATED_MS = 45_000;
/** The boot script's mark on a tapped control and on <html> (shared/boot-script.ts). */
export const PENDING = 'data-tap-pending';

/** A phone that runs scripts slowly, whose app's script is held back until `release`. */
export interface SlowPhone {
  page: Page;
  /** Lets the app's script through (the held request and any later one). */
  release: () => void;
  /** Whether the page has asked for the app's script. */
  appAsked: () => boolean;
}

/**
 * Opens a page (`people.open` with `options`) on a CPU throttled 6x whose requests for the app's
 * script wait until `release`; every untrusted click (the app's replay of a tap: a person's click
 * is trusted) is counted in `window.replayedClicks`, every trusted one that reaches the document in
 * `window.pageHeardTaps`.
 */
export async function slowPhone(
  open: (options?: OpenOptions) => Promise<Page>,
  options?: OpenOptions,
): Promise<SlowPhone> {
  const page = await open(options);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route('**/assets/app-*.js', (route) =>
    unlessTornDown(async () => {
      asked = true;
      await released;
      await route.continue();
    }),
  );
  await page.addInitScript(() => {
    const clicks: string[] = [];
    (window as unknown as { replayedClicks: string[] }).replayedClicks = clicks;
    // Where React listens (its root is the document): the person's clicks that reach the page.
    const heard: string[] = [];
    (window as unknown as { pageHeardTaps: string[] }).pageHeardTaps = heard;
    document.addEventListener(
      'click',
      (event) => {
        if (event.isTrusted && event.target instanceof Element) heard.push(event.target.textContent ?? '');
      },
      true,
    );
    window.addEventListener(
      'click',
      (event) => {
        if (!event.isTrusted && event.target instanceof Element) clicks.push(event.target.textContent ?? '');
      },
      true,
    );
  });
  return { page, release, appAsked: () => asked };
}

/** The person's clicks that reached the document's listeners, React's among them (see `slowPhone`). */
export function pageHeardTaps(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { pageHeardTaps: string[] }).pageHeardTaps);
}

/** The clicks the app has replayed so far (see `slowPhone`). */
export function replayedClicks(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { replayedClicks: string[] }).replayedClicks);
}

/** A phone 375 px wide. */
export const PHONE: OpenOptions = { context: { viewport: { width: 375, height: 812 } } };

/**
 * Opens `path` on a slow phone without waiting for the app (its script is held back, so the page
 * never finishes loading until `release`): returns once the server's HTML has come.
 */
export async function openBeforeApp(
  open: (options?: OpenOptions) => Promise<Page>,
  path: string,
  account?: CustomerAccount | BusinessAccount,
) {
  const phone = await slowPhone(open, PHONE);
  if (account) await signIn(phone.page, account);
  // The frame's own goto: the page's (helpers.ts) would wait for the app.
  await phone.page.mainFrame().goto(path, { waitUntil: 'commit' });
  return phone;
}

/** Whether the app has hydrated the page. */
export function appRunning(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.hasAttribute('data-app-running'));
}

/** The input of the tRPC mutation `procedure` that `request` sends (a batch of one, superjson). */
export function mutationInput(request: Request): Record<string, unknown> {
  const body = request.postDataJSON() as Record<string, { json: Record<string, unknown> }>;
  return body['0']!.json;
}

/** Waits for the app to take over the page (after `release`). */
export async function appTakesOver(page: Page) {
  await expect.poll(() => appRunning(page), { timeout: HYDRATED_MS }).toBe(true);
}
