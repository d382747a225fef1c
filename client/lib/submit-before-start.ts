/**
 * A form sent before the app runs. The app's forms have no action: the browser's own send would
 * reload the page empty (or put the fields in the address). The page's head carries a small static
 * script (HOLD_SUBMIT_SCRIPT, rendered by the root route) that, until the app has replayed what was
 * typed, holds such a send (nobody else prevented it: once React runs the form, its handler does),
 * remembers the form and the button that sent it (Enter in a field counts), and marks the button
 * as taken. Once the app has
 * set the typed values again (client/lib/input-before-start.ts), `replayHeldSubmit` sends the form
 * again through React (`requestSubmit`), so the request is the app's and the person sees its answer.
 * A form with an action (a search sent by GET) is the browser's, as a link would be.
 */
import { TAP_PENDING_ATTRIBUTE } from '../../shared/boot-script';

/** The form sent before the app ran (the latest), and whether the app has taken over sending. */
export interface HeldSubmit {
  form?: HTMLFormElement;
  submitter?: HTMLElement | null;
  done?: boolean;
}

declare global {
  interface Window {
    /** Set by HOLD_SUBMIT_SCRIPT (the page's head) when a form is sent before the app runs. */
    lastslotHeldSubmit?: HeldSubmit;
  }
}

const mark = JSON.stringify(TAP_PENDING_ATTRIBUTE);

/**
 * The head's script: its text is the same on every page and every answer (a Content-Security-Policy
 * hash can allow it). Plain ES5, as it runs before anything else. Enter in a field of a form whose
 * button is still disabled (it is until the app has checked the fields) is held as a send too: the
 * app checks the fields, then sends or shows what is wrong.
 */
export const HOLD_SUBMIT_SCRIPT = `(function(){
var w=window,d=document.documentElement;
function done(){var h=w.lastslotHeldSubmit;if(h&&h.done){removeEventListener('submit',onSubmit);removeEventListener('keydown',onKey);return true}}
function take(f,s){var h=w.lastslotHeldSubmit;
if(h&&h.submitter){h.submitter.removeAttribute(${mark});h.submitter.removeAttribute('aria-busy')}
w.lastslotHeldSubmit={form:f,submitter:s};
if(s){s.setAttribute(${mark},'');s.setAttribute('aria-busy','true')}
d.setAttribute(${mark},'')}
function onSubmit(e){var f=e.target;
if(done()||e.defaultPrevented||!(f instanceof HTMLFormElement)||f.hasAttribute('action'))return;
e.preventDefault();take(f,e.submitter||null)}
function onKey(e){var t=e.target,f=t&&t.form,b;
if(done()||e.key!=='Enter'||e.isComposing||!(t instanceof HTMLInputElement)||!f||f.hasAttribute('action'))return;
b=f.querySelector('button[type=submit],input[type=submit]');
if(b&&b.disabled){e.preventDefault();take(f,b)}}
addEventListener('submit',onSubmit);addEventListener('keydown',onKey)})()`;

/**
 * Ends the holding (from now on React sends the page's forms) and returns the form held meanwhile,
 * if any. Call once the values typed before the app ran are set again.
 */
export function takeHeldSubmit(): HeldSubmit | null {
  const held = window.lastslotHeldSubmit;
  window.lastslotHeldSubmit = { done: true };
  return held?.form ? held : null;
}

/** Whether `element` is a button that can send `form` (what `requestSubmit` accepts). */
function sendsForm(element: HTMLElement | null | undefined, form: HTMLFormElement): element is HTMLElement {
  const button = element instanceof HTMLButtonElement || element instanceof HTMLInputElement ? element : null;
  return !!button && button.form === form && (button.type === 'submit' || button.type === 'image');
}

/**
 * Sends `held`'s form again, now through the app (with the button that sent it, if still its
 * own), and clears the "taken" marks. A form no longer on the page is dropped.
 */
export function replayHeldSubmit({ form, submitter }: HeldSubmit): void {
  submitter?.removeAttribute(TAP_PENDING_ATTRIBUTE);
  submitter?.removeAttribute('aria-busy');
  document.documentElement.removeAttribute(TAP_PENDING_ATTRIBUTE);
  if (!form?.isConnected) return;
  form.requestSubmit(sendsForm(submitter, form) ? submitter : undefined);
}
