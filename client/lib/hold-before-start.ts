/**
 * What a person does in a page before its app runs, held by the page's head for the app: a tap on
 * a control, a list box changed, a form sent, a list opened. Every page is whole in the server's
 * HTML seconds before the app runs on a slow phone, whether its app loads at once or at the first
 * interaction (client/boot.ts); until then a button, tab, box or radio does nothing, the app's
 * forms have no action (the browser's own send would reload the page empty, or put the fields in
 * the address) and a select's list (a Mantine `Select`: an input with `aria-haspopup="listbox"`)
 * opens only through the app. The page's head carries a small static script
 * (HOLD_BEFORE_START_SCRIPT, rendered by the root route, the same on every page) that, until the
 * app runs, holds the latest such tap (its default prevented: a box stays as it was), the latest
 * list box changed, the latest form sent (nobody else prevented it: once React runs the form, its
 * handler does) with the button that sent it (Enter in a field counts), and the latest list tapped,
 * each marked as taken. Once the app has set the typed values again
 * (client/lib/input-before-start.ts), `replayHeld` clicks the tapped control again, opens the
 * list if the person is still on it and sends the form again through React (`requestSubmit`), so
 * the app answers them. A link is the browser's, as is a form with an action sent by GET (a search).
 */

/**
 * Set on a control taken before the app ran, and on `<html>` while the app is on its way: the
 * page's CSS shows that the tap was taken.
 */
export const TAP_PENDING_ATTRIBUTE = 'data-tap-pending';

/**
 * What was held before the app ran: the latest control tapped (or list box changed), the latest
 * form sent, the latest list tapped (a tap elsewhere drops it); and whether the app has taken over.
 */
export interface HeldBeforeStart {
  /** The control tapped: a button (or `role="button"`), box or radio; or a list box changed. */
  tap?: HTMLElement | null;
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
 * hash can allow it). Plain ES5, as it runs before anything else. A tap or a list tapped is held
 * only until `<html data-app-running>` (from then on React answers it). A tap held goes no further
 * than the window, where the script hears it first: React, which may be hydrating already, never
 * answers it besides the replay (a box would be checked twice, so not at all). A tap inside a
 * link, on a disabled control or on a form's sending button (the send is held instead, as a send)
 * is not held. Enter in a field of a form whose button is still disabled (it is until the app has checked
 * the fields) is held as a send too: the app checks the fields, then sends or shows what is wrong.
 * A form with an action is held only when sent by POST.
 */
export const HOLD_BEFORE_START_SCRIPT = `(function(){
var w=window,d=document.documentElement,h=w.lastslotHeld={},
C='button,[role=button],input[type=submit],input[type=button],input[type=checkbox],input[type=radio]';
function done(){if(h.done){removeEventListener('submit',onSubmit);removeEventListener('keydown',onKey);removeEventListener('click',onClick,true);removeEventListener('change',onChange);return true}}
function running(){return d.hasAttribute('data-app-running')}
function mark(e){e.setAttribute(${mark},'');e.setAttribute('aria-busy','true');d.setAttribute(${mark},'')}
function unmark(e){if(e){e.removeAttribute(${mark});e.removeAttribute('aria-busy')}}
function tap(c){unmark(h.tap);h.tap=c;mark(c)}
function take(f,s){unmark(h.submitter);h.form=f;h.submitter=s;if(s)mark(s);else d.setAttribute(${mark},'')}
function browsers(f){return f.hasAttribute('action')&&f.method!=='post'}
function onSubmit(e){var f=e.target;
if(done()||e.defaultPrevented||!(f instanceof HTMLFormElement)||browsers(f))return;
e.preventDefault();take(f,e.submitter||null)}
function onKey(e){var t=e.target,f=t&&t.form,b;
if(done()||e.key!=='Enter'||e.isComposing||!(t instanceof HTMLInputElement)||!f||browsers(f))return;
b=f.querySelector('button[type=submit],input[type=submit]');
if(b&&b.disabled){e.preventDefault();take(f,b)}}
function onClick(e){var t=e.target,o,c;
if(done()||!(t instanceof Element))return;o=t.closest('input[aria-haspopup=listbox]');
if(o!==h.opener){unmark(h.opener);h.opener=null;if(o&&!o.disabled&&!running()){h.opener=o;mark(o)}}
c=!o&&!running()&&!t.closest('a[href]')&&t.closest(C);
if(!c||c.matches(':disabled,[aria-disabled=true]')||c.form&&(c.type==='submit'||c.type==='image'))return;
e.preventDefault();e.stopPropagation();tap(c)}
function onChange(e){if(!done()&&!running()&&e.target instanceof HTMLSelectElement)tap(e.target)}
addEventListener('submit',onSubmit);addEventListener('keydown',onKey);addEventListener('click',onClick,true);addEventListener('change',onChange)})()`;

/**
 * Ends the holding (from now on React answers the page's controls, forms and lists) and returns
 * what was held meanwhile, if anything. Call once the values typed before the app ran are set again.
 */
export function takeHeld(): HeldBeforeStart | null {
  const held = (window.lastslotHeld ??= {});
  if (held.done) return null;
  held.done = true;
  return held.tap || held.form || held.opener ? held : null;
}

/** Whether `element` is a button that can send `form` (what `requestSubmit` accepts). */
function sendsForm(element: HTMLElement | null | undefined, form: HTMLFormElement): element is HTMLElement {
  const button = element instanceof HTMLButtonElement || element instanceof HTMLInputElement ? element : null;
  return !!button && button.form === form && (button.type === 'submit' || button.type === 'image');
}

/**
 * Clicks again the control tapped before the app ran, now that React answers it (a list box's
 * choice is not: `replayInputBeforeStart` set it with the other values).
 */
function replayTap(control: HTMLElement): void {
  if (control instanceof HTMLSelectElement) return;
  if (control instanceof HTMLInputElement) {
    // A press first has React hydrate the part of the page it is in, if it has not yet: a box or
    // radio checked while React hydrates it would be taken as its starting state, not a change.
    control.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
  }
  control.click();
}

/**
 * Answers what `takeHeld` returned, now through the app, and clears the "taken" marks: the control
 * tapped is clicked again; the list tapped opens if it still has the focus (the person has not
 * moved on) and is not open yet (React may have answered the tap itself); the form held is sent
 * again (with the button that sent it, if still its own). An element no longer on the page is
 * dropped.
 */
export function replayHeld({ tap, form, submitter, opener }: HeldBeforeStart): void {
  for (const element of [tap, submitter, opener]) {
    element?.removeAttribute(TAP_PENDING_ATTRIBUTE);
    element?.removeAttribute('aria-busy');
  }
  document.documentElement.removeAttribute(TAP_PENDING_ATTRIBUTE);
  if (tap?.isConnected) replayTap(tap);
  if (opener?.isConnected && document.activeElement === opener && opener.getAttribute('aria-expanded') !== 'true')
    opener.click();
  if (form?.isConnected) form.requestSubmit(sendsForm(submitter, form) ? submitter : undefined);
}
