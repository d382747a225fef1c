/**
 * Loading the settings' saved values ('Error loading profile', the spinner forced off after 10 s),
 * shared by the business settings and the customer's Personal Information card.
 */
import { Alert, Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { useWaitLimit } from '../../lib/requests';

/** The settings loading spinner is forced off after 10 s. */
export const SPINNER_FORCED_OFF_MS = 10_000;

/**
 * Watches `query`: `failed` once it errs or is still pending after 10 s (toasting 'Error loading
 * profile' with `failureText` once), `retry()` asks again with a fresh 10 s.
 */
export function useSettingsLoad(
  query: { isPending: boolean; isError: boolean; refetch: () => unknown },
  failureText: string,
) {
  const [attempt, setAttempt] = useState(0);
  const gaveUp = useWaitLimit(query.isPending, SPINNER_FORCED_OFF_MS, attempt);
  const failed = query.isError || (query.isPending && gaveUp);
  useEffect(() => {
    if (failed) notifications.show({ color: 'red', title: MSG.errorLoadingProfileTitle, message: failureText });
  }, [failed, failureText]);
  return {
    failed,
    loading: query.isPending && !gaveUp,
    retry() {
      setAttempt((n) => n + 1);
      void query.refetch();
    },
  };
}

/** The 'Error loading profile' box with `text` and a Retry button. */
export function SettingsLoadFailed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" title={MSG.errorLoadingProfileTitle} role="alert">
      {text}
      <div>
        <Button mt="sm" size="xs" variant="light" color="red" onClick={onRetry}>
          Retry
        </Button>
      </div>
    </Alert>
  );
}
