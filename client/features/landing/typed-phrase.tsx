import { ActionIcon } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { typewriterStep, typewriterText, typewriterWhole } from '../../../shared/typewriter';

/**
 * The landing headline's typing state (shared/typewriter.ts timings: 100 ms a typed character,
 * 50 ms a deleted one, 2 s pause). It starts on the whole first phrase, as the page rendered on the
 * server shows it (docs/decisions/0080), and moves on from there. `paused` stops it on the whole
 * current phrase (WCAG 2.2.2: moving content needs a way to stop it); with prefers-reduced-motion
 * it never moves. The media query is read after the first render, which must be the server's; the
 * stylesheet hides the caret and the pause button for reduced motion until then, so such a
 * visitor never sees anything move.
 */
export function useTypewriter(phrases: readonly string[]) {
  const reduceMotion = useReducedMotion();
  const [state, setState] = useState(() => typewriterWhole(phrases));
  const [paused, setPaused] = useState(false);
  const moving = !reduceMotion && !paused;

  useEffect(() => {
    if (!moving) return;
    const { next, delayMs } = typewriterStep(state, phrases);
    const timer = setTimeout(() => setState(next), delayMs);
    return () => clearTimeout(timer);
  }, [state, phrases, moving]);

  let text: string;
  if (reduceMotion) text = phrases[0] ?? '';
  else if (paused) text = phrases[state.phrase] ?? '';
  else text = typewriterText(state, phrases);

  const toggle = () => {
    if (paused) {
      // Resume from the whole phrase that was shown while paused: pause on it, then delete.
      setState((s) => ({ ...s, shown: phrases[s.phrase]?.length ?? 0, deleting: false }));
    }
    setPaused((p) => !p);
  };
  return { text, moving, reduceMotion, paused, toggle };
}

/**
 * The visible, typed part of the headline. Decorative: hide it from assistive technology. Every
 * phrase (with the caret) is laid out invisibly in the same place, so the headline is as tall as
 * its longest phrase at any width and the page below does not jump as the phrases change.
 */
export function TypedPhrase({ text, moving, phrases }: { text: string; moving: boolean; phrases: readonly string[] }) {
  return (
    <span className="typed-phrase-box">
      {phrases.map((phrase) => (
        <span key={phrase} className="typed-phrase-sizer">
          {phrase}
          <span className="typing-caret" />
        </span>
      ))}
      <span className="typed-phrase" data-testid="typed-phrase" style={{ color: 'var(--mantine-color-brand-8)' }}>
        {text}
        {moving && <span className="typing-caret" />}
      </span>
    </span>
  );
}

/** The pause/play button of the headline animation (hidden when the visitor prefers reduced motion). */
export function TypingToggle({ paused, onToggle }: { paused: boolean; onToggle: () => void }) {
  return (
    <ActionIcon
      className="typing-toggle"
      variant="subtle"
      color="gray"
      size="lg"
      radius="xl"
      onClick={onToggle}
      aria-label={paused ? 'Play headline animation' : 'Pause headline animation'}
    >
      {paused ? (
        <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
          <path d="M8 5v14l11-7z" />
        </svg>
      ) : (
        <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
          <path d="M7 5h4v14H7zM13 5h4v14h-4z" />
        </svg>
      )}
    </ActionIcon>
  );
}
