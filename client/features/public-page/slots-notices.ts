import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { MSG } from '../../../shared/messages';
import { noticeFor, type NoticeTexts } from '../../lib/requests';

/** Texts for a failed refresh of the page's data (slots included): the time-out's, else the generic one. */
const SLOTS_TEXTS: NoticeTexts = {
  timeout: MSG.pageSlotsTimeout,
  failed: MSG.pageSlotsFailed,
  refused: MSG.pageSlotsFailed,
};

/** The message for a failed refresh: the time-out text, else the generic one (never the server's). */
export function slotsErrorText(err: unknown): string {
  return noticeFor(err, SLOTS_TEXTS).message;
}

/**
 * A refresh of the page's data (slots included, ADR 0019) failed while the page was shown: toast
 * 'Error loading slots' once per failure.
 */
export function useSlotsErrorToast(err: unknown) {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (err === null || shown.current === err) return;
    shown.current = err;
    notifications.show({ color: 'red', title: MSG.pageSlotsErrorTitle, message: slotsErrorText(err) });
  }, [err]);
}
