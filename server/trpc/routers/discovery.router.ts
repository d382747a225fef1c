/** Discover (docs/decisions/0081): no login; searches are limited per client IP (docs/decisions/0092). */
import { discoverySearchInput, discoveryStreamInput } from '../../../shared/schemas/discovery';
import { searchSlots } from '../../features/discovery/discovery.service';
import { liveDiscoveryEvents } from '../../realtime/live-discovery';
import { publicProcedure } from '../procedures';
import { router } from '../trpc';

export const discoveryRouter = router({
  /**
   * { window, latitude + longitude | place, miles, category?, sort?, timezone?, cursor?, limit? }
   * → { results, nextCursor, centre } (searchSlots).
   */
  search: publicProcedure.input(discoverySearchInput).query(({ ctx, input }) => searchSlots(ctx, input)),

  /**
   * Optional { latitude, longitude, miles } of the list → live `DiscoveryEvent`s of businesses listed
   * within `miles` of that centre (liveDiscoveryEvents; docs/decisions/0094).
   */
  onChange: publicProcedure.input(discoveryStreamInput).subscription(({ ctx, input, signal }) => {
    const area =
      input?.latitude !== undefined && input.longitude !== undefined && input.miles !== undefined
        ? { centre: { latitude: input.latitude, longitude: input.longitude }, miles: input.miles }
        : null;
    return liveDiscoveryEvents({ hub: ctx.hub, area, db: ctx.db, logger: ctx.logger }, signal);
  }),
});
