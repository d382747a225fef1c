/** Mantine's toast container with the app's settings; loaded lazily by ./toasts.tsx. */
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_SETTINGS } from './toasts';

export default function ToastContainer() {
  return <Notifications {...TOAST_SETTINGS} />;
}
