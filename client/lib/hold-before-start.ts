/**
 * What the page's head holds for the app before it runs: a form sent, and a list opened. The app's
 * forms have no action: the browser's own send would reload the page empty (or put the fields in
 * the address); a select's list (a Mantine `Select`: an input with `aria-haspopup="listbox"`)
 * opens only through the app, so a tap on it would do nothing. The page's head carries a small
 * static script (HOLD_BEFORE_START_SCRIPT, rendered by the root route) that, until the app has
 * replayed what was typed, holds such a send (nobody else prevented it: once React runs the form,
 * its handler does), remembers the form and the button that sent it (Enter in a field counts) and
 * marks the button as taken; and remembers the list tapped, marked the same way. Once the app has
 * set the typed values again (client/lib/input-before-start.ts), `replayHeld` opens the list, if
 * the person is still on it, and sends the form again through React (`requestSubmit`), so the
 * request is the app's and the person sees its answer. A form with an action (a search sent by
 * GET) is the browser's, as a link would be.
 */
import { TAP_PENDING_ATTRIBUTE } from '../../shared/boot-script';

/**
 * What was held before the app ran: the latest form sent, the latest list tapped (a tap elsewhere
 * drops it); and whether the app has taken over.
 */
export interface HeldBeforeStart {
  form?: HTMLFormElement;
  submitter?: HTMLElement | null;
  /** The list opener tapped: a select's input. */
  opener?: HTMLElement | null;
  done?: boolean;
}

declare global {
  interface Window {
    /** Set by HOLD_BEFORE_START_SCRIPT (the page's head): what it holds until the app runs. */
    lastslotHeld?: HeldBeforeStart;
  }
}

const mark = JSON.stringify(TAP_PENDING_ATTRIBUTE);

/**
 * The head's script: its text is the same on every page and every answer (a Content-Security-Policy
 * hash can allow it). Plain ES5, as it runs before anything else. Enter in a field of a form whose
 * button is still disabled (it is until the app has checked the fields) is held as a send too: the
 * app checks the fields, then sends or shows what is wrong. A list tapped once the app runs is the
 * app's.
 */
export const HOLD_BEFORE_START_SCRIPT = `(function(){
var w=window,d=document.documentElement,h=w.lastslotHeld={};
function done(){if(h.done){removeEventListener('submit',onSubmit);removeEventListener('keydown',onKey);removeEventListener('click',onClick);return true}}
function mark(e){e.setAttribute(${mark},'');e.setAttribute('aria-busy','true');d.setAttribute(${mark},'')}
function unmark(e){if(e){e.removeAttribute(${mark});e.removeAttribute('aria-busy')}}
function take(f,s){unmark(h.submitter);h.form=f;h.submitter=s;if(s)mark(s);else d.setAttribute(${mark},'')}
function onSubmit(e){var f=e.target;
if(done()||e.defaultPrevented||!(f instanceof HTMLFormElement)||f.hasAttribute('action'))return;
e.preventDefault();take(f,e.submitter||null)}
function onKey(e){var t=e.target,f=t&&t.form,b;
if(done()||e.key!=='Enter'||e.isComposing||!(t instanceof HTMLInputElement)||!f||f.hasAttribute('action'))return;
b=f.querySelector('button[type=submit],input[type=submit]');
if(b&&b.disabled){e.preventDefault();take(f,b)}}
function onClick(e){var o=e.target instanceof Element&&e.target.closest('input[aria-haspopup=listbox]');
if(done()||o===h.opener)return;unmark(h.opener);h.opener=null;
if(o&&!o.disabled&&!d.hasAttribute('data-app-running')){h.opener=o;mark(o)}}
addEventListener('submit',onSubmit);addEventListener('keydown',onKey);addEventListener('click',onClick)})()`;

/**
 * Ends the holding (from now on React answers the page's forms and lists) and returns what was held
 * meanwhile, if anything. Call once the values typed before the app ran are set again.
 */
export function takeHeld(): HeldBeforeStart | null {
  const held = (window.lastslotHeld ??= {});
  if (held.done) return null;
  held.done = true;
  return held.form || held.opener ? held : null;
}

/** Whether `element` is a button that can send `form` (what `requestSubmit` accepts). */
function sendsForm(element: HTMLElement | null | undefined, form: HTMLFormElement): element is HTMLElement {
  const button = element instanceof HTMLButtonElement || element instanceof HTMLInputElement ? element : null;
  return !!button && button.form === form && (button.type === 'submit' || button.type === 'image');
}

/**
 * Answers what `takeHeld` returned, now through the app, and clears the "taken" marks: the list
 * tapped opens if it still has the focus (the person has not moved on) and is not open yet (React
 * may have answered the tap itself); the form held is sent again (with the button that sent it, if
 * still its own). An element no longer on the page is dropped.
 */
export function replayHeld({ form, submitter, opener }: HeldBeforeStart): void {
  for (const element of [submitter, opener]) {
    element?.removeAttribute(TAP_PENDING_ATTRIBUTE);
    element?.removeAttribute('aria-busy');
  }
  document.documentElement.removeAttribute(TAP_PENDING_ATTRIBUTE);
  if (opener?.isConnected && document.activeElement === opener && opener.getAttribute('aria-expanded') !== 'true')
    opener.click();
  if (form?.isConnected) form.requestSubmit(sendsForm(submitter, form) ? submitter : undefined);
}
