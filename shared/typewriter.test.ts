import { describe, expect, it } from 'vitest';
import { TYPEWRITER_START, typewriterStep, typewriterText, type TypewriterState } from './typewriter';

const phrases = ['ab', 'xyz'];

function run(steps: number) {
  let state: TypewriterState = TYPEWRITER_START;
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
});
