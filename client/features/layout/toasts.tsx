/**
 * Where toasts (`notifications.show` from @mantine/notifications) appear: bottom right, three at a
 * time, each closing after 5 s. The container's code (transitions, portal, drag to dismiss) loads
 * with the first toast rather than with the first-load bundle (ADR 0055); toasts shown before it
 * arrives wait in the store and appear when it mounts.
 */
import { notificationsStore, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

export const TOAST_SETTINGS = { limit: 3, autoClose: 5000, position: 'bottom-right' } as const;

// The store applies the limit when a toast is added: set it now, before the container mounts.
notificationsStore.updateState((s) => ({
  ...s,
  limit: TOAST_SETTINGS.limit,
  defaultPosition: TOAST_SETTINGS.position,
}));

const ToastContainer = lazy(() => import('./toast-container'));

/** Mounts the toast container once the first toast is shown, and keeps it. */
export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  ) : null;
}
