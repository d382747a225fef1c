/** Input schemas of the alerts procedures (docs/decisions/0086), with the words of each refusal. */
import { z } from 'zod';
import { MSG } from '../messages';
import { discoverySearchFields, oneWhere } from './discovery';

/** alerts.create: the Discover search being looked at (its where, window, distance, category and the customer's zone). */
export const createAlertInput = z.object(discoverySearchFields).superRefine(oneWhere);
export type CreateAlertInput = z.infer<typeof createAlertInput>;
export type CreateAlertForm = z.input<typeof createAlertInput>;

const alertId = z.uuid({ error: MSG.alertNotFound });

/** alerts.delete: one of the customer's alerts. */
export const alertIdInput = z.object({ alertId });
export type AlertIdInput = z.infer<typeof alertIdInput>;

/** alerts.setPaused: pauses (true) or resumes (false) one of the customer's alerts. */
export const setAlertPausedInput = z.object({ alertId, paused: z.boolean({ error: MSG.badRequest }) });
export type SetAlertPausedInput = z.infer<typeof setAlertPausedInput>;
