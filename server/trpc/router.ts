/** The application router. `AppRouter` is the only thing the client imports from the server. */
import { accountRouter } from './routers/account.router';
import { alertsRouter } from './routers/alerts.router';
import { authRouter } from './routers/auth.router';
import { billingRouter } from './routers/billing.router';
import { bookingsRouter } from './routers/bookings.router';
import { businessesRouter } from './routers/businesses.router';
import { contactRouter } from './routers/contact.router';
import { devRouter } from './routers/dev.router';
import { discoveryRouter } from './routers/discovery.router';
import { favouritesRouter } from './routers/favourites.router';
import { notificationsRouter } from './routers/notifications.router';
import { settingsRouter } from './routers/settings.router';
import { slotsRouter } from './routers/slots.router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  auth: authRouter,
  businesses: businessesRouter,
  slots: slotsRouter,
  bookings: bookingsRouter,
  contact: contactRouter,
  favourites: favouritesRouter,
  settings: settingsRouter,
  billing: billingRouter,
  account: accountRouter,
  notifications: notificationsRouter,
  discovery: discoveryRouter,
  alerts: alertsRouter,
  dev: devRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
