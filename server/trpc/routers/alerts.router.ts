/** A customer's alerts of new slots (docs/decisions/0086): saved from Discover, listed, paused, deleted. */
import { alertIdInput, createAlertInput, setAlertPausedInput } from '../../../shared/schemas/alerts';
import { createAlert, deleteAlert, listAlerts, setAlertPaused } from '../../features/alerts/alerts.service';
import { customerProcedure } from '../procedures';
import { router } from '../trpc';

export const alertsRouter = router({
  /** The Discover search { window, place | latitude + longitude, miles, category?, timezone } → the new alert (createAlert). */
  create: customerProcedure.input(createAlertInput).mutation(({ ctx, input }) => createAlert(ctx, ctx.user.id, input)),

  /** → the customer's alerts, newest first (listAlerts). */
  list: customerProcedure.query(({ ctx }) => listAlerts(ctx, ctx.user.id)),

  /** { alertId, paused } → the alert (setAlertPaused). */
  setPaused: customerProcedure
    .input(setAlertPausedInput)
    .mutation(({ ctx, input }) => setAlertPaused(ctx, ctx.user.id, input)),

  /** { alertId } → { id } (deleteAlert). */
  delete: customerProcedure
    .input(alertIdInput)
    .mutation(({ ctx, input }) => deleteAlert(ctx, ctx.user.id, input.alertId)),
});
