/**
 * The only script of a page whose app loads at the visitor's first interaction (the pages people
 * arrive on from outside: the page is whole in its HTML, and a visitor who only looks never
 * downloads the app). The app's script, named by this element's APP_ENTRY_ATTRIBUTE, loads at the
 * first tap, key, scroll or mouse move. Links work as links and GET forms as forms meanwhile; a
 * button, checkbox or radio tapped, a list box changed or a form sent by POST before the app runs
 * is marked as taken and answered once the app has hydrated the page
 * (client/lib/tap-before-start.ts). What is typed or chosen meanwhile stays in the page's fields,
 * where the app's entry reads it before it hydrates (client/lib/input-before-start.ts).
 */
// Nothing the app imports may be imported here, or the build would make this script load it.
import { APP_ENTRY_ATTRIBUTE, TAP_PENDING_ATTRIBUTE, type PendingTap } from '../shared/boot-script';

const START_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'wheel', 'scroll'] as const;
const CONTROLS =
  'button, [role="button"], input[type="submit"], input[type="button"], input[type="checkbox"], input[type="radio"]';

const bootElement = document.querySelector(`script[${APP_ENTRY_ATTRIBUTE}]`);
const entry = bootElement?.getAttribute(APP_ENTRY_ATTRIBUTE);
let started = false;
const pending: PendingTap = { element: null };
window.lastslotPendingTap = pending;

function start(): void {
  for (const type of START_EVENTS) window.removeEventListener(type, start, true);
  if (!entry || started) return;
  started = true;
  const script = document.createElement('script');
  script.type = 'module';
  script.src = entry;
  document.head.append(script);
}

/** Marks `control` as the tap to answer once the app runs (the latest tap wins). */
function take(control: Element): void {
  pending.element?.removeAttribute(TAP_PENDING_ATTRIBUTE);
  pending.element?.removeAttribute('aria-busy');
  pending.element = control;
  control.setAttribute(TAP_PENDING_ATTRIBUTE, '');
  control.setAttribute('aria-busy', 'true');
  document.documentElement.setAttribute(TAP_PENDING_ATTRIBUTE, '');
  start();
}

function onClick(event: MouseEvent): void {
  if (pending.done) return void window.removeEventListener('click', onClick, true);
  const control = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
  if (!control) return;
  const form = control.closest('form');
  // A GET form is a search: the browser sends it as a link would, and the server renders the result.
  if (form && form.method === 'get' && control.matches('[type="submit"], button:not([type])')) return;
  event.preventDefault();
  take(control);
}

/** A choice made in a list box before the app runs: the app hears it as a change once it runs. */
function onChange(event: Event): void {
  if (pending.done) return void window.removeEventListener('change', onChange, true);
  if (event.target instanceof HTMLSelectElement) take(event.target);
}

function onSubmit(event: SubmitEvent): void {
  if (pending.done) return void window.removeEventListener('submit', onSubmit, true);
  const form = event.target instanceof HTMLFormElement ? event.target : null;
  if (!form || form.method === 'get') return;
  event.preventDefault();
  take(event.submitter ?? form);
}

for (const type of START_EVENTS) window.addEventListener(type, start, { capture: true, passive: true });
window.addEventListener('click', onClick, true);
window.addEventListener('change', onChange, true);
window.addEventListener('submit', onSubmit, true);
