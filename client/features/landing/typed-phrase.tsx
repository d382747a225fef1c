import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { TYPEWRITER_START, typewriterStep, typewriterText } from '../../../shared/typewriter';

/**
 * The landing headline's cycling phrase, typed and deleted (shared/typewriter.ts timings). With
 * prefers-reduced-motion the first phrase stands still. Decorative: the heading carries the full
 * text for assistive technology.
 */
export function TypedPhrase({ phrases }: { phrases: readonly string[] }) {
  const reduceMotion = useReducedMotion();
  const [state, setState] = useState(TYPEWRITER_START);

  useEffect(() => {
    if (reduceMotion) return;
    const { next, delayMs } = typewriterStep(state, phrases);
    const timer = setTimeout(() => setState(next), delayMs);
    return () => clearTimeout(timer);
  }, [state, phrases, reduceMotion]);

  const text = reduceMotion ? phrases[0] : typewriterText(state, phrases);
  return (
    <span className="typed-phrase" style={{ color: 'var(--mantine-color-brand-8)' }}>
      {text}
      {!reduceMotion && <span className="typing-caret" />}
    </span>
  );
}
