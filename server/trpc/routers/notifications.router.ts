/** Notification preferences and unsubscribe (docs/decisions/0054); the emailed token is unsubscribe's authority. */
import { setNotificationInput, unsubscribeInput } from '../../../shared/schemas/notifications';
import {
  describeUnsubscribe,
  getNotificationPreferences,
  setNotificationPreference,
  unsubscribe,
} from '../../features/notifications/notifications.service';
import { authedProcedure, publicProcedure } from '../procedures';
import { router } from '../trpc';

export const notificationsRouter = router({
  /** → the signed-in user's notification switches (getNotificationPreferences). */
  preferences: authedProcedure.query(({ ctx }) => getNotificationPreferences(ctx, ctx.user.id, ctx.user.role)),

  /** { kind, enabled } → the updated switches (setNotificationPreference). */
  setPreference: authedProcedure
    .input(setNotificationInput)
    .mutation(({ ctx, input }) =>
      setNotificationPreference(ctx, ctx.user.id, ctx.user.role, input.kind, input.enabled),
    ),

  /** { token } → what the link turns off, without changing anything (describeUnsubscribe). */
  unsubscribeInfo: publicProcedure
    .input(unsubscribeInput)
    .query(({ ctx, input }) => describeUnsubscribe(ctx, input.token)),

  /** { token } → the kind turned off (unsubscribe). */
  unsubscribe: publicProcedure.input(unsubscribeInput).mutation(({ ctx, input }) => unsubscribe(ctx, input.token)),
});
