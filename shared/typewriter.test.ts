import { describe, expect, it } from 'vitest';
import { typewriterStep, typewriterText, typewriterWhole, type TypewriterState } from './typewriter';

const phrases = ['ab', 'xyz'];

/** Before any phrase is typed. */
const EMPTY: TypewriterState = { phrase: 0, shown: 0, deleting: false };

function run(steps: number, start: TypewriterState = EMPTY) {
  let state = start;
  const seen: { text: string; delayMs: number }[] = [];
  for (let i = 0; i < steps; i++) {
    const { next, delayMs } = typewriterStep(state, phrases);
    state = next;
    seen.push({ text: typewriterText(state, phrases), delayMs });
  }
  return seen;
}

describe('typewriterStep', () => {
  it('types at 100 ms a character, pauses 2 s, deletes at 50 ms, then types the next phrase', () => {
    expect(run(8)).toEqual([
      { text: 'a', delayMs: 100 },
      { text: 'ab', delayMs: 100 },
      { text: 'ab', delayMs: 2000 },
      { text: 'a', delayMs: 50 },
      { text: '', delayMs: 50 },
      { text: '', delayMs: 100 },
      { text: 'x', delayMs: 100 },
      { text: 'xy', delayMs: 100 },
    ]);
  });

  it('wraps round to the first phrase after the last', () => {
    // 'ab': 2 typed + pause + 2 deleted + switch = 6 steps; 'xyz': 3 + 1 + 3 + 1 = 8 steps.
    const texts = run(15).map((s) => s.text);
    expect(texts[12]).toBe('');
    expect(texts[14]).toBe('a');
  });

  it('starts from the whole first phrase: the pause on it, then deleting and the next phrase', () => {
    expect(typewriterText(typewriterWhole(phrases), phrases)).toBe('ab');
    expect(run(5, typewriterWhole(phrases))).toEqual([
      { text: 'ab', delayMs: 2000 },
      { text: 'a', delayMs: 50 },
      { text: '', delayMs: 50 },
      { text: '', delayMs: 100 },
      { text: 'x', delayMs: 100 },
    ]);
  });
});
