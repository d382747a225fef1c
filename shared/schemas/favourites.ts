/** Input schemas of the favourites procedures. */
import { z } from 'zod';
import { MSG } from '../messages';

const businessId = z.uuid({ error: MSG.businessNotFound });

export const favouriteStatusInput = z.object({ businessId });
export type FavouriteStatusInput = z.infer<typeof favouriteStatusInput>;

/** Sets (not toggles) the favourite, so a double click cannot undo itself. */
export const setFavouriteInput = z.object({ businessId, favourited: z.boolean() });
export type SetFavouriteInput = z.infer<typeof setFavouriteInput>;

/** "Email me when this business adds a slot" on (true) or off (false), for one of the customer's favourites. */
export const setFavouriteAlertInput = z.object({ businessId, notify: z.boolean({ error: MSG.badRequest }) });
export type SetFavouriteAlertInput = z.infer<typeof setFavouriteAlertInput>;
