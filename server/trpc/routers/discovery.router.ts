/** Discover (docs/decisions/0081): no login; searches are limited per client IP (docs/decisions/0092). */
import { boundingBox } from '../../../shared/geo';
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

  /** Optional { latitude, longitude, miles } of the list → live `DiscoveryEvent`s there (liveDiscoveryEvents). */
  onChange: publicProcedure.input(discoveryStreamInput).subscription(({ ctx, input, signal }) => {
    const area =
      input?.latitude !== undefined && input.longitude !== undefined && input.miles !== undefined
        ? boundingBox({ latitude: input.latitude, longitude: input.longitude }, input.miles)
        : null;
    return liveDiscoveryEvents({ hub: ctx.hub, area }, signal);
  }),
});
