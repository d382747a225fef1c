/**
 * Business URL availability in settings (dashboards spec §4 "Business URL (slug) check states",
 * §5): 'checking' from the first keystroke until the answer, asked 500 ms after typing stops;
 * 'valid' (the own unchanged slug, or free: 'URL is available!'), 'invalid' (format, reserved, or
 * 'Error checking availability. Please try again.') or 'taken'.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { SLUG_PATTERN } from '../../../shared/schemas/settings';
import { trpc } from '../../lib/trpc';

export type BusinessSlugState = 'checking' | 'valid' | 'invalid' | 'taken';

const DEBOUNCE_MS = 500;

export function useBusinessSlugCheck(slug: string, ownSlug: string) {
  const utils = trpc.useUtils();
  const [state, setState] = useState<BusinessSlugState>('valid');
  const [message, setMessage] = useState<string | null>(null);
  const seq = useRef(0);

  const check = useCallback(
    async (value: string, id: number) => {
      if (!SLUG_PATTERN.test(value)) {
        setState('invalid');
        setMessage(MSG.slugFormat);
        return;
      }
      try {
        const result = await utils.settings.checkSlug.fetch({ slug: value }, { staleTime: 0 });
        if (id !== seq.current) return;
        if (result.status === 'valid') {
          setState('valid');
          setMessage(MSG.slugAvailable);
        } else {
          setState(result.status);
          setMessage(result.message);
        }
      } catch {
        if (id !== seq.current) return;
        setState('invalid');
        setMessage(MSG.slugCheckFailed);
      }
    },
    [utils],
  );

  useEffect(() => {
    const id = ++seq.current;
    if (slug === ownSlug) {
      setState('valid');
      setMessage(null);
      return;
    }
    setState('checking');
    setMessage(MSG.slugChecking);
    const timer = setTimeout(() => void check(slug, id), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [slug, ownSlug, check]);

  /** Marks the slug taken (the server refused it at save). */
  const markTaken = useCallback((text: string) => {
    seq.current++;
    setState('taken');
    setMessage(text);
  }, []);

  return { state, message, markTaken };
}
