/**
 * Username (slug) availability (accounts spec §4 "Slug availability states"): idle while typing,
 * a check 500 ms after typing stops once there are 3 characters, 'invalid' after 8 s.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { onboardingSlugSchema } from '../../../shared/schemas/auth';
import { errorInfo, trpc } from '../../lib/trpc';
import { firstError } from '../../lib/zod-form';

export type SlugState = 'idle' | 'checking' | 'valid' | 'taken' | 'invalid';

const DEBOUNCE_MS = 500;
const TIMEOUT_MS = 8000;

export function useSlugCheck(slug: string) {
  const utils = trpc.useUtils();
  const [state, setState] = useState<SlugState>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const seq = useRef(0);

  const check = useCallback(
    async (value: string) => {
      const id = ++seq.current;
      const formatError = firstError(onboardingSlugSchema, value);
      if (formatError) {
        setState('invalid');
        setMessage(formatError);
        return;
      }
      setState('checking');
      setMessage(null);
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS);
        });
        const result = await Promise.race([
          utils.auth.checkSlug.fetch({ slug: value.trim().toLowerCase() }, { staleTime: 0 }),
          timeout,
        ]);
        if (id !== seq.current) return;
        if (result === 'timeout') {
          setState('invalid');
          setMessage(MSG.usernameCheckTimeout);
        } else if (result.available) {
          setState('valid');
          setMessage(null);
        } else {
          setState('taken');
          setMessage(MSG.usernameTaken);
        }
      } catch (err) {
        if (id !== seq.current) return;
        // Accounts spec §8: slug-check failures read 'Connection error: ...' (no answer) or
        // 'Database error: ...' (the server answered with an error).
        const info = errorInfo(err);
        setState('invalid');
        setMessage(
          info.message === MSG.connection ? `Connection error: ${info.message}` : `Database error: ${info.message}`,
        );
      } finally {
        clearTimeout(timer);
      }
    },
    [utils],
  );

  useEffect(() => {
    seq.current++;
    setState('idle');
    setMessage(null);
    if (slug.trim().length < 3) return;
    const timer = setTimeout(() => void check(slug), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [slug, check]);

  /** Marks the slug taken (e.g. the server refused it at submit). */
  const markTaken = useCallback((text: string) => {
    seq.current++;
    setState('taken');
    setMessage(text);
  }, []);

  return { state, message, markTaken };
}
