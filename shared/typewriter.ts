/**
 * The landing headline's typing animation as a pure state machine (100 ms per
 * typed character, 50 ms per deleted one, 2 s pause on a whole phrase; phrases cycle).
 */
export interface TypewriterState {
  /** Index of the phrase being typed or deleted. */
  phrase: number;
  /** Characters of that phrase currently shown. */
  shown: number;
  deleting: boolean;
}

export const TYPEWRITER_TIMING = { typeMs: 100, deleteMs: 50, pauseMs: 2000 } as const;

/**
 * The headline's first frame: the first phrase whole, as a page rendered on the server shows it
 * before any script runs (docs/decisions/0080); the first step is the 2 s pause on it.
 */
export function typewriterWhole(phrases: readonly string[]): TypewriterState {
  return { phrase: 0, shown: phrases[0]?.length ?? 0, deleting: false };
}

/** The visible text of `state`. */
export function typewriterText(state: TypewriterState, phrases: readonly string[]): string {
  return (phrases[state.phrase] ?? '').slice(0, state.shown);
}

/**
 * One step: the next state and how long (ms) to wait before showing it. Types a character, pauses
 * on a complete phrase, deletes a character, or moves on to the next phrase (wrapping round).
 */
export function typewriterStep(
  state: TypewriterState,
  phrases: readonly string[],
  timing: { typeMs: number; deleteMs: number; pauseMs: number } = TYPEWRITER_TIMING,
): { next: TypewriterState; delayMs: number } {
  const length = phrases[state.phrase]?.length ?? 0;
  if (!state.deleting) {
    if (state.shown < length) return { next: { ...state, shown: state.shown + 1 }, delayMs: timing.typeMs };
    return { next: { ...state, deleting: true }, delayMs: timing.pauseMs };
  }
  if (state.shown > 0) return { next: { ...state, shown: state.shown - 1 }, delayMs: timing.deleteMs };
  return { next: { phrase: (state.phrase + 1) % phrases.length, shown: 0, deleting: false }, delayMs: timing.typeMs };
}
