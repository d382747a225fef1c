/** Inputs of the notification settings and the one-click unsubscribe (docs/decisions/0054). */
import { z } from 'zod';
import { NOTIFICATION_KINDS, type NotificationKind } from '../notifications';

export const setNotificationInput = z.object({
  kind: z.enum(NOTIFICATION_KINDS as [NotificationKind, ...NotificationKind[]]),
  enabled: z.boolean(),
});
export type SetNotificationInput = z.infer<typeof setNotificationInput>;

/** An unsubscribe token as links carry it: 32 base32 characters. */
export const unsubscribeTokenSchema = z.string().regex(/^[a-z2-7]{32}$/, 'This unsubscribe link is not valid.');
export const unsubscribeInput = z.object({ token: unsubscribeTokenSchema });
