/** Business and customer settings (docs/decisions/0013). */
import {
  checkBusinessSlugInput,
  updateBusinessHoursInput,
  updateBusinessProfileInput,
  updateCustomerNameInput,
} from '../../../shared/schemas/settings';
import {
  checkBusinessSlug,
  getBusinessSettings,
  updateBusinessHours,
  updateBusinessProfile,
} from '../../features/settings/business-settings.service';
import { setBusinessLocationInput, setDiscoverableInput } from '../../../shared/schemas/discovery';
import { getCalendarFeed, regenerateCalendarFeed } from '../../features/calendar/calendar.service';
import {
  getBusinessLocation,
  locateFromAddress,
  setBusinessLocation,
  setDiscoverable,
} from '../../features/settings/business-location.service';
import { getCustomerSettings, updateCustomerName } from '../../features/settings/customer-settings.service';
import { businessProcedure, customerProcedure } from '../procedures';
import { router } from '../trpc';

export const settingsRouter = router({
  /** → the business's settings cards (getBusinessSettings). */
  business: businessProcedure.query(({ ctx }) => getBusinessSettings(ctx, ctx.user.id)),

  /** { slug } → { status, message? } of the Business URL field (checkBusinessSlug). */
  checkSlug: businessProcedure
    .input(checkBusinessSlugInput)
    .query(({ ctx, input }) => checkBusinessSlug(ctx, ctx.user.id, input.slug)),

  /** The Business Information card → { slug, slugChanged } (updateBusinessProfile). */
  updateBusinessProfile: businessProcedure
    .input(updateBusinessProfileInput)
    .mutation(({ ctx, input }) => updateBusinessProfile(ctx, ctx.user.id, input)),

  /** { schedule } → { openingHours } (updateBusinessHours). */
  updateBusinessHours: businessProcedure
    .input(updateBusinessHoursInput)
    .mutation(({ ctx, input }) => updateBusinessHours(ctx, ctx.user.id, input.schedule)),

  /** → the Location card: { latitude, longitude, precision, source, discoverable, listed, address, lookup } (getBusinessLocation). */
  location: businessProcedure.query(({ ctx }) => getBusinessLocation(ctx, ctx.user.id)),

  /** 'Use my current location' or the dragged pin: { latitude, longitude, source } → the Location card (setBusinessLocation). */
  setLocation: businessProcedure
    .input(setBusinessLocationInput)
    .mutation(({ ctx, input }) => setBusinessLocation(ctx, ctx.user.id, input)),

  /** 'Show my slots in Discover': { discoverable } → the Location card (setDiscoverable). */
  setDiscoverable: businessProcedure
    .input(setDiscoverableInput)
    .mutation(({ ctx, input }) => setDiscoverable(ctx, ctx.user.id, input.discoverable)),

  /** 'Locate from my address': queues a look-up → the Location card, lookup 'pending' (locateFromAddress). */
  locateFromAddress: businessProcedure.mutation(({ ctx }) => locateFromAddress(ctx, ctx.user.id)),

  /** → { active, createdAt } of the business's calendar feed (getCalendarFeed). */
  calendarFeed: businessProcedure.query(({ ctx }) => getCalendarFeed(ctx, ctx.user.id)),

  /** Creates or replaces the calendar feed's secret URL → { url, createdAt } (regenerateCalendarFeed). */
  regenerateCalendarFeed: businessProcedure.mutation(({ ctx }) => regenerateCalendarFeed(ctx, ctx.user.id)),

  /** → { fullName, email } of the customer (getCustomerSettings). */
  customer: customerProcedure.query(({ ctx }) => getCustomerSettings(ctx, ctx.user.id)),

  /** 'Update Name': { fullName } → { fullName } (updateCustomerName). */
  updateCustomerName: customerProcedure
    .input(updateCustomerNameInput)
    .mutation(({ ctx, input }) => updateCustomerName(ctx, ctx.user.id, input)),
});
