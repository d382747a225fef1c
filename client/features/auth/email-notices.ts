import { notifications } from '@mantine/notifications';
import { MSG } from '../../../shared/messages';

/**
 * 'Email Limit Reached': the account was (likely) created but its email was held back because one
 * was sent to this address less than a minute ago.
 */
export function notifyEmailThrottled(): void {
  notifications.show({ color: 'yellow', title: MSG.emailLimitTitle, message: MSG.emailLimit, autoClose: 10_000 });
}
