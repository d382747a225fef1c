/**
 * Business URL availability in settings: 'checking' from the first keystroke until the answer,
 * asked 500 ms after typing stops; 'valid' (the own unchanged slug, or free: 'URL is available!'),
 * 'invalid' (format, reserved, or 'Error checking availability. Please try again.') or 'taken'.
 */
import { MSG } from '../../../shared/messages';
import { SLUG_PATTERN } from '../../../shared/schemas/settings';
import { trpc } from '../../lib/trpc';
import { useAvailabilityCheck } from '../../lib/use-availability-check';

export type BusinessSlugState = 'checking' | 'valid' | 'invalid' | 'taken';

const CHECKING = { state: 'checking', message: MSG.slugChecking } as const;

/** `{ state, message, markTaken }` of the typed Business URL `slug` (see useAvailabilityCheck). */
export function useBusinessSlugCheck(slug: string, ownSlug: string) {
  const utils = trpc.useUtils();
  return useAvailabilityCheck<BusinessSlugState>(slug, {
    known: (value) => (value === ownSlug ? { state: 'valid', message: null } : null),
    typing: CHECKING,
    invalid: (value) => (SLUG_PATTERN.test(value) ? null : { state: 'invalid', message: MSG.slugFormat }),
    checking: CHECKING,
    ask: async (value) => {
      const result = await utils.settings.checkSlug.fetch({ slug: value }, { staleTime: 0 });
      return result.status === 'valid'
        ? { state: 'valid', message: MSG.slugAvailable }
        : { state: result.status, message: result.message };
    },
    failed: () => ({ state: 'invalid', message: MSG.slugCheckFailed }),
  });
}
