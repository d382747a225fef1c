/**
 * The only script of a page the server rendered (the public page and the landing page,
 * docs/decisions/0075 and 0076). The page is whole in its HTML; the app's script, which makes its
 * buttons work, loads at the visitor's first interaction (a tap, a key, a scroll, the mouse over
 * the page), so a visitor who only looks never downloads it. A button tapped before the app runs
 * is tapped again once it has hydrated the page (`replayPendingClick`). The app's script address
 * is the `data-app-entry` of this script's element.
 */
// Nothing the app imports may be imported here, or the build would make this script load it.
import { APP_ENTRY_ATTRIBUTE } from '../shared/boot-script';
import type { PendingClick } from './lib/deferred-start';

const START_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'wheel', 'scroll'] as const;

const entry = document.querySelector(`script[${APP_ENTRY_ATTRIBUTE}]`)?.getAttribute(APP_ENTRY_ATTRIBUTE);
const pending: PendingClick = { element: null };
window.lastslotPendingClick = pending;

function start(): void {
  for (const type of START_EVENTS) window.removeEventListener(type, start, true);
  if (!entry) return;
  const script = document.createElement('script');
  script.type = 'module';
  script.src = entry;
  document.head.append(script);
}

/** A click on a control before the app runs: remembered (the latest), and otherwise left alone. */
function remember(event: MouseEvent): void {
  if (pending.done) {
    window.removeEventListener('click', remember, true);
    return;
  }
  const target = event.target instanceof Element ? event.target.closest('button, [role="button"]') : null;
  if (target) pending.element = target;
}

for (const type of START_EVENTS) window.addEventListener(type, start, { capture: true, passive: true });
window.addEventListener('click', remember, true);
