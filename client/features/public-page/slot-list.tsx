import { Alert, Button, Stack, Text } from '@mantine/core';
import { memo } from 'react';
import { formatDate, formatTimeRange } from '../../../shared/format';
import { MSG } from '../../../shared/messages';
import './public-page.css';
import { RequestButton } from './request-button';
import { slotsErrorText } from './slots-notices';
import type { Slot } from './use-business-by-slug';

/**
 * The open slots, grouped by date, with a Request button each (or 'Login or Sign Up to Request'
 * when the viewer cannot request); the owner sees its own slots without buttons. A failed refresh
 * shows 'Error loading slots' with Try Again above the list. Memoised: the page re-renders when the
 * session query answers after the first paint, and the list (the page's largest part) is then
 * left as it is unless its props changed; callers pass stable callbacks.
 */
export const SlotList = memo(function SlotList({
  slots,
  isOwner,
  isBusinessViewer,
  showRequestButtons,
  canRequest,
  refreshError,
  refreshing,
  onRetry,
  onRequest,
  onSignIn,
}: {
  slots: Slot[];
  isOwner: boolean;
  isBusinessViewer: boolean;
  showRequestButtons: boolean;
  canRequest: boolean;
  refreshError: unknown;
  refreshing: boolean;
  onRetry: () => void;
  onRequest: (slot: Slot) => void;
  onSignIn: () => void;
}) {
  return (
    <div className="pp-card">
      <h2 className="pp-h2">{isOwner ? 'Your Available Slots' : MSG.pageRequest}</h2>
      <p className="pp-text-sm pp-dimmed pp-mb-md">{slotsSummary(slots.length, isOwner)}</p>
      {isBusinessViewer && !isOwner && (
        <p className="pp-text-sm pp-mb-md">
          {`${MSG.businessCannotRequest} Log in with a customer account to request one.`}
        </p>
      )}
      {refreshError !== null && (
        <Alert color="red" variant="light" mb="md" title={MSG.pageSlotsErrorTitle} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{slotsErrorText(refreshError)}</Text>
            <Button size="xs" variant="default" onClick={onRetry} loading={refreshing}>
              {MSG.pageTryAgain}
            </Button>
          </Stack>
        </Alert>
      )}
      <div className="pp-days">
        {groupByDate(slots).map(([date, daySlots]) => {
          const day = formatDate(date);
          return (
            <section key={date} aria-label={day}>
              <p className="pp-text-sm pp-bold pp-day">{day}</p>
              <div className="pp-rows">
                {daySlots.map((s) => {
                  const time = formatTimeRange(s.startTime, s.endTime);
                  return (
                    <div key={s.id} className="pp-slot" data-testid="public-slot">
                      <div className="pp-min0">
                        <p className="pp-text pp-bold">{time}</p>
                        <p className="pp-text-sm pp-dimmed pp-wrap">{s.description}</p>
                      </div>
                      {showRequestButtons && (
                        <RequestButton
                          canRequest={canRequest}
                          requestLabel={`Request ${s.description}, ${day}, ${time}`}
                          onRequest={() => onRequest(s)}
                          onSignIn={onSignIn}
                        />
                      )}
                    </div>
                  );
                })}
              </div>
            </section>
          );
        })}
      </div>
    </div>
  );
});

function slotsSummary(count: number, isOwner: boolean): string {
  if (isOwner) {
    return count === 0
      ? 'You have no open slots. Customers will see them here once you add some on your dashboard.'
      : `Customers can request ${count === 1 ? 'this slot' : `these ${count} slots`}; you confirm or decline each request.`;
  }
  if (count === 0) return 'No slots are available right now. Check back soon.';
  return `${count} ${count === 1 ? 'slot' : 'slots'} available. The business confirms each request.`;
}

/** Slots (already sorted by date, then start) grouped by date. */
function groupByDate(slots: Slot[]): Array<[string, Slot[]]> {
  const groups = new Map<string, Slot[]>();
  for (const s of slots) {
    const day = groups.get(s.date);
    if (day) day.push(s);
    else groups.set(s.date, [s]);
  }
  return [...groups];
}
