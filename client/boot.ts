/**
 * The only script of a page whose app loads at the visitor's first interaction (the pages people
 * arrive on from outside: the page is whole in its HTML, and a visitor who only looks never
 * downloads the app). The app's script, named by this element's APP_ENTRY_ATTRIBUTE, loads at the
 * first tap, key, scroll, mouse move, change or send. Links work as links and GET forms as forms
 * meanwhile. What is tapped or sent before the app runs is held by the page's head, as on every
 * page (client/lib/hold-before-start.ts); what is typed or chosen stays in the page's fields, where
 * the app's entry reads it before it hydrates (client/lib/input-before-start.ts).
 */
// Nothing the app imports may be imported here, or the build would make this script load it.
import { APP_ENTRY_ATTRIBUTE } from '../shared/boot-script';

// A change or a send comes without a key or pointer when a tool (or a test) makes it.
const START_EVENTS = [
  'pointerdown',
  'pointermove',
  'touchstart',
  'keydown',
  'wheel',
  'scroll',
  'click',
  'change',
  'submit',
] as const;

const entry = document.querySelector(`script[${APP_ENTRY_ATTRIBUTE}]`)?.getAttribute(APP_ENTRY_ATTRIBUTE);
let started = false;

function start(): void {
  for (const type of START_EVENTS) window.removeEventListener(type, start, true);
  if (!entry || started) return;
  started = true;
  window.lastslotStartedByInteraction = true;
  const script = document.createElement('script');
  script.type = 'module';
  script.src = entry;
  document.head.append(script);
}

for (const type of START_EVENTS) window.addEventListener(type, start, { capture: true, passive: true });
