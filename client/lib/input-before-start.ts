/**
 * What a person types or chooses in a server-rendered page before the app runs: text in inputs
 * and text areas, a list box's choice, a box or radio checked. React keeps such a value through
 * hydration only until its next render of the field, which writes its own (empty) state back;
 * so the app's entry records every field whose value differs from the one the server rendered
 * (and every change until the app answers), and the root route, once the page is hydrated
 * (client/lib/page-hydrated.tsx), sets each again through React: the value through the element's
 * native setter, then the event React listens to, so the component's state (a form library's too)
 * takes it as typed. A choice made
 * before the app runs wins over the one the address or the server rendered. Values live in memory
 * only, until replayed (passwords too: never logged, never stored). See ADR 0098.
 */
import { pageHydrated } from './page-hydrated';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** Input types whose value a person does not type or choose (or that a page sets itself). */
const NOT_TYPED = new Set(['hidden', 'file', 'submit', 'button', 'reset', 'image']);

/** A field's value as recorded: its text, its choice, or whether it is checked. */
interface Recorded {
  element: Field;
  /** How to find the field again should the app have replaced its element (a client render). */
  key: FieldKey;
  value: string | boolean;
}

/** What names a field across renders: its id (React's useId is the same on both), name, label. */
interface FieldKey {
  tag: string;
  id: string;
  name: string;
  /** For a box or radio: its value (radios share a name). */
  option: string;
  label: string;
}

const recorded = new Map<Field, Recorded>();
let recording = false;
let replayStarted = false;

function isField(target: EventTarget | null): target is Field {
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type) && !target.readOnly;
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

function isCheckable(field: Field): field is HTMLInputElement {
  return field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
}

/** Whether `field` holds something other than what the server rendered in it. */
function changedSinceRender(field: Field): boolean {
  if (field instanceof HTMLSelectElement) return [...field.options].some((o) => o.selected !== o.defaultSelected);
  if (isCheckable(field)) return field.checked !== field.defaultChecked;
  return field.value !== field.defaultValue;
}

function keyOf(field: Field): FieldKey {
  return {
    tag: field.tagName,
    id: field.id,
    name: field.name,
    option: isCheckable(field) ? field.value : '',
    label: field.getAttribute('aria-label') ?? field.labels?.[0]?.textContent?.trim() ?? '',
  };
}

function record(field: Field): void {
  // An unchecked radio is not a choice: the radio checked in its place is.
  if (field instanceof HTMLInputElement && field.type === 'radio' && !field.checked) return;
  const value = isCheckable(field) ? field.checked : field.value;
  // Kept in the order of the last change: a list box that resets another field replays first.
  recorded.delete(field);
  recorded.set(field, { element: field, key: keyOf(field), value });
}

/** While the replay sets a value: its own events are not the person's. */
let replaying = false;

function onInput(event: Event): void {
  if (replaying || !isField(event.target)) return;
  // Once React runs the page, what is typed there is React's: it reads the whole value from the field.
  if (pageHydrated()) recorded.delete(event.target);
  else record(event.target);
}

/**
 * Records, before the app hydrates the page, every field whose value the person changed since
 * the server rendered it, and from then on every change, until `replayInputBeforeStart`. Called
 * once by the app's entry, before it hydrates.
 */
export function recordInputBeforeStart(): void {
  if (recording) return;
  recording = true;
  for (const field of document.querySelectorAll('input, textarea, select')) {
    if (isField(field) && changedSinceRender(field)) record(field);
  }
  window.addEventListener('input', onInput, true);
  window.addEventListener('change', onInput, true);
}

/** The field `key` names on the page now: the same element if still there, else its like. */
function find({ element, key }: Recorded): Field | undefined {
  if (element.isConnected) return element;
  const fields = [...document.querySelectorAll(key.tag)].filter(isField);
  const same = (f: Field) => !isCheckable(f) || f.value === key.option;
  return (
    (key.id ? fields.find((f) => f.id === key.id && same(f)) : undefined) ??
    (key.name ? fields.find((f) => f.name === key.name && same(f)) : undefined) ??
    (key.label ? fields.find((f) => keyOf(f).label === key.label && same(f)) : undefined)
  );
}

/** The element's own (prototype's) setter of `property`, which React's value tracking does not see. */
function nativeSet(field: Field, property: 'value' | 'checked', value: string | boolean): void {
  let proto: object | null = Object.getPrototypeOf(field);
  while (proto && !Object.getOwnPropertyDescriptor(proto, property)) proto = Object.getPrototypeOf(proto);
  Object.getOwnPropertyDescriptor(proto ?? field, property)?.set?.call(field, value);
}

/** Sets `value` in `field` as a person would have: React and the page's form state hear it. */
function apply(field: Field, value: string | boolean): void {
  if (field.disabled) return;
  if (isCheckable(field)) {
    if (field.type === 'radio' && value !== true) return;
    // React tracks what it last saw checked; it hears a click that changes that as a change.
    field.checked = !value;
    field.click();
    return;
  }
  if (field instanceof HTMLSelectElement) {
    if (![...field.options].some((o) => o.value === value)) return;
    nativeSet(field, 'value', value);
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  // React tracks the value it last saw: made different first, the typed one reads as a change.
  field.value = `${String(value)}\u0000`;
  nativeSet(field, 'value', value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** How long (ms) the replay waits for React to hydrate the page's own content. */
const HYDRATION_WAIT_MS = 10_000;

function stopRecording(): void {
  recording = false;
  recorded.clear();
  window.removeEventListener('input', onInput, true);
  window.removeEventListener('change', onInput, true);
}

/**
 * Sets again, through React, every value recorded by `recordInputBeforeStart`, in the order they
 * were last changed, once React has committed the page's own content (`pageHydrated`, checked
 * frame by frame for up to HYDRATION_WAIT_MS; after that they are set anyway); a field no longer
 * on the page is dropped. Then forgets them, stops recording and calls `done`. Call once the
 * page's first render is committed.
 */
export function replayInputBeforeStart(done: () => void = () => {}): void {
  if (!recording || replayStarted) return done();
  replayStarted = true;
  const started = performance.now();
  const step = () => {
    if (!pageHydrated() && performance.now() - started < HYDRATION_WAIT_MS) {
      requestAnimationFrame(step);
      return;
    }
    for (const entry of recorded.values()) {
      const field = find(entry);
      if (!field) continue;
      replaying = true;
      try {
        apply(field, entry.value);
      } finally {
        replaying = false;
      }
    }
    stopRecording();
    done();
  };
  step();
}
