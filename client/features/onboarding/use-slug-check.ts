/**
 * Username availability at business sign-up: idle while typing and below 3 characters, a check
 * 500 ms after typing stops, 'Check timed out. Please try again.' after 8 s.
 */
import { MSG } from '../../../shared/messages';
import { onboardingSlugSchema } from '../../../shared/schemas/auth';
import { USERNAME_MIN } from '../../../shared/schemas/limits';
import { callWithTimeout, noticeFor, TIME_LIMITS_MS } from '../../lib/requests';
import { trpc } from '../../lib/trpc';
import { useAvailabilityCheck } from '../../lib/use-availability-check';

export type SlugState = 'idle' | 'checking' | 'valid' | 'taken' | 'invalid';

const IDLE = { state: 'idle', message: null } as const;

/** `{ state, message, markTaken }` of the typed username `slug` (see useAvailabilityCheck). */
export function useSlugCheck(slug: string) {
  const utils = trpc.useUtils();
  return useAvailabilityCheck<SlugState>(slug, {
    known: (value) => (value.trim().length < USERNAME_MIN ? IDLE : null),
    typing: IDLE,
    invalid: (value) => {
      const issue = onboardingSlugSchema.safeParse(value).error?.issues[0];
      return issue ? { state: 'invalid', message: issue.message } : null;
    },
    checking: { state: 'checking', message: null },
    ask: async (value) => {
      const { available } = await callWithTimeout(
        () => utils.auth.checkSlug.fetch({ slug: value.trim().toLowerCase() }, { staleTime: 0 }),
        TIME_LIMITS_MS.usernameCheck,
      );
      return available ? { state: 'valid', message: null } : { state: 'taken', message: MSG.usernameTaken };
    },
    // No answer reads 'Connection error: …'; a server error 'Database error: …'.
    failed: (err) => {
      const notice = noticeFor(err, { timeout: MSG.usernameCheckTimeout });
      if (notice.kind === 'timeout') return { state: 'invalid', message: notice.message };
      const prefix = notice.kind === 'noAnswer' ? 'Connection error' : 'Database error';
      return { state: 'invalid', message: `${prefix}: ${notice.message}` };
    },
  });
}
