/**
 * A live availability check of a typed value (the username at sign-up, the Business URL in
 * settings): a state known at once, or a check 500 ms after typing stops. Only the newest check's
 * answer is shown.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** Wait after the last keystroke before checking. */
export const CHECK_DEBOUNCE_MS = 500;

/** A field state and the text shown with it. */
export interface CheckState<S extends string> {
  state: S;
  message: string | null;
}

/** What one field's check does at each step. */
export interface AvailabilityCheck<S extends string> {
  /** The state known without checking (e.g. the own slug, too short), or null to check. */
  known: (value: string) => CheckState<S> | null;
  /** Shown from a keystroke until the check starts. */
  typing: CheckState<S>;
  /** A format error found when typing stopped, or null. */
  invalid: (value: string) => CheckState<S> | null;
  /** Shown while the server is asked. */
  checking: CheckState<S>;
  /** Asks the server; resolves with the answer's state. */
  ask: (value: string) => Promise<CheckState<S>>;
  /** The state after `ask` threw (a TimeoutError included). */
  failed: (err: unknown) => CheckState<S>;
}

/**
 * The check state of `value` as `check` describes it, and `markTaken(text)` for a refusal found
 * later (e.g. at submit), which also drops any answer still on its way.
 */
export function useAvailabilityCheck<S extends string>(value: string, check: AvailabilityCheck<S | 'taken'>) {
  const checkRef = useRef(check);
  useEffect(() => {
    checkRef.current = check;
  });
  const known = check.known(value);
  const [current, setCurrent] = useState<CheckState<S | 'taken'>>(() => known ?? check.typing);
  const seq = useRef(0);

  useEffect(() => {
    const id = ++seq.current;
    const steps = checkRef.current;
    const settled = steps.known(value);
    if (settled) {
      setCurrent(settled);
      return;
    }
    setCurrent(steps.typing);
    const timer = setTimeout(() => {
      const invalid = steps.invalid(value);
      if (invalid) {
        setCurrent(invalid);
        return;
      }
      setCurrent(steps.checking);
      steps.ask(value).then(
        (answer) => id === seq.current && setCurrent(answer),
        (err: unknown) => id === seq.current && setCurrent(steps.failed(err)),
      );
    }, CHECK_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, known?.state, known?.message]);

  const markTaken = useCallback((text: string) => {
    seq.current++;
    setCurrent({ state: 'taken', message: text });
  }, []);

  return { state: current.state, message: current.message, markTaken };
}
