/** The data export: everything held about the signed-in business or customer (docs/decisions/0014). */
import { desc, eq } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { DEFAULT_TIMEZONE, localNow } from '../../../shared/zoned-time';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import type { DbOrTx } from '../../db/client';
import {
  alerts,
  bookings,
  businessProfiles,
  customerLikes,
  customerProfiles,
  slots,
  users,
} from '../../db/schema/index';
import { alertViewColumns } from '../alerts/alerts.service';
import { publicBusinessColumns, slotColumns } from '../businesses/businesses.service';

export const EXPORT_VERSION = '2.0';

type UserType = 'business' | 'customer';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A booking's slot: the live slot, else the archived copy kept when the slot was removed. */
function slotOf(row: {
  slot: { id: string; date: string; startTime: string; endTime: string; description: string } | null;
  archivedSlotDate: string | null;
  archivedSlotStartTime: string | null;
  archivedSlotEndTime: string | null;
  archivedSlotDescription: string | null;
}) {
  if (row.slot) return { ...row.slot, archived: false };
  if (!row.archivedSlotDate) return null;
  return {
    id: null,
    date: row.archivedSlotDate,
    startTime: row.archivedSlotStartTime,
    endTime: row.archivedSlotEndTime,
    description: row.archivedSlotDescription,
    archived: true,
  };
}

const accountColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  emailVerifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
};

async function readAccount(db: DbOrTx, userId: string) {
  const [row] = await db.select(accountColumns).from(users).where(eq(users.id, userId)).limit(1);
  return row && { ...row, emailVerifiedAt: iso(row.emailVerifiedAt), createdAt: iso(row.createdAt) };
}

/** The bookings of one party, newest first, with slot, customer and business, live or archived. */
async function readBookings(db: DbOrTx, party: UserType, userId: string) {
  const rows = await db
    .select({
      id: bookings.id,
      status: bookings.status,
      bookingDate: bookings.bookingDate,
      notes: bookings.notes,
      declinedByBusiness: bookings.declinedByBusiness,
      createdAt: bookings.createdAt,
      updatedAt: bookings.updatedAt,
      slot: slotColumns,
      archivedSlotDate: bookings.archivedSlotDate,
      archivedSlotStartTime: bookings.archivedSlotStartTime,
      archivedSlotEndTime: bookings.archivedSlotEndTime,
      archivedSlotDescription: bookings.archivedSlotDescription,
      customer: {
        id: customerProfiles.id,
        fullName: customerProfiles.fullName,
        email: customerProfiles.email,
        phoneNumber: customerProfiles.phoneNumber,
      },
      business: {
        id: businessProfiles.id,
        businessName: businessProfiles.businessName,
        slug: businessProfiles.slug,
        address: businessProfiles.address,
        phoneNumber: businessProfiles.phoneNumber,
        emailAddress: businessProfiles.emailAddress,
      },
      archivedBusinessName: bookings.archivedBusinessName,
      archivedBusinessAddress: bookings.archivedBusinessAddress,
    })
    .from(bookings)
    .leftJoin(slots, eq(slots.id, bookings.slotId))
    .leftJoin(customerProfiles, eq(customerProfiles.id, bookings.customerId))
    .leftJoin(businessProfiles, eq(businessProfiles.id, bookings.businessId))
    .where(eq(party === 'business' ? bookings.businessId : bookings.customerId, userId))
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  return rows.map((b) => ({
    id: b.id,
    status: b.status,
    bookingDate: iso(b.bookingDate),
    notes: b.notes,
    declinedByBusiness: b.declinedByBusiness,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
    slot: slotOf(b),
    customer: b.customer,
    businessProfile: b.business
      ? { ...b.business, archived: false }
      : b.archivedBusinessName
        ? { id: null, businessName: b.archivedBusinessName, address: b.archivedBusinessAddress, archived: true }
        : null,
  }));
}

/**
 * The customer's favourites, or the likes a business received (not who gave them). A failed read is
 * exported as an empty list: likes never block the export.
 */
async function readLikes(deps: Pick<ServiceDeps, 'db' | 'logger'>, party: UserType, userId: string) {
  try {
    const rows = await deps.db
      .select({
        id: customerLikes.id,
        createdAt: customerLikes.createdAt,
        notifyNewSlots: customerLikes.notifyNewSlots,
        businessProfile: {
          id: businessProfiles.id,
          businessName: businessProfiles.businessName,
          slug: businessProfiles.slug,
          businessType: businessProfiles.businessType,
          address: businessProfiles.address,
        },
      })
      .from(customerLikes)
      .innerJoin(businessProfiles, eq(businessProfiles.id, customerLikes.businessId))
      .where(eq(party === 'business' ? customerLikes.businessId : customerLikes.customerId, userId))
      .orderBy(desc(customerLikes.createdAt), desc(customerLikes.id));
    return rows.map(({ notifyNewSlots, ...l }) => ({
      ...l,
      createdAt: iso(l.createdAt),
      // The customer's own choice; a business is not told who asked to hear of its slots.
      ...(party === 'customer' ? { notifyNewSlots } : {}),
    }));
  } catch (err) {
    deps.logger.warn({ err }, 'data export: likes could not be read; exported without them');
    return [];
  }
}

/** The customer's saved alerts (docs/decisions/0086), newest first, as Settings lists them. */
async function readAlerts(db: DbOrTx, customerId: string) {
  const rows = await db
    .select({ ...alertViewColumns, timezone: alerts.timezone, lastEmailedAt: alerts.lastEmailedAt })
    .from(alerts)
    .where(eq(alerts.customerId, customerId))
    .orderBy(desc(alerts.createdAt), desc(alerts.id));
  return rows.map((a) => ({ ...a, createdAt: iso(a.createdAt), lastEmailedAt: iso(a.lastEmailedAt) }));
}

function fileName(userType: UserType, timezone: string, now: Date): string {
  return `${userType}-data-${localNow(timezone, now).date}.json`;
}

function metadata(userType: UserType, account: { id: string; email: string }, now: Date) {
  return {
    downloadedAt: now.toISOString(),
    userId: account.id,
    email: account.email,
    userType,
    dataVersion: EXPORT_VERSION,
  };
}

/** The business's export. */
async function exportBusiness(deps: Pick<ServiceDeps, 'db' | 'now' | 'logger'>, userId: string) {
  const { db } = deps;
  const now = deps.now();
  const account = await readAccount(db, userId);
  const [business] = await db
    .select({
      ...publicBusinessColumns,
      subscriptionStatus: businessProfiles.subscriptionStatus,
      isEarlyAdopter: businessProfiles.isEarlyAdopter,
      latitude: businessProfiles.latitude,
      longitude: businessProfiles.longitude,
      locationPrecision: businessProfiles.locationPrecision,
      locationSource: businessProfiles.locationSource,
      discoverable: businessProfiles.discoverable,
      createdAt: businessProfiles.createdAt,
      updatedAt: businessProfiles.updatedAt,
    })
    .from(businessProfiles)
    .where(eq(businessProfiles.id, userId))
    .limit(1);
  if (!account || !business) throw new DomainError('NOT_FOUND', MSG.exportBusinessFailed);
  const slotRows = await db
    .select()
    .from(slots)
    .where(eq(slots.businessId, userId))
    .orderBy(desc(slots.date), desc(slots.startTime));
  const bookingList = (await readBookings(db, 'business', userId)).map(({ businessProfile: _, ...b }) => b);
  const likes = await readLikes(deps, 'business', userId);
  return {
    fileName: fileName('business', business.timezone, now),
    data: {
      version: EXPORT_VERSION,
      userType: 'business' as const,
      profile: { ...business, createdAt: iso(business.createdAt), updatedAt: iso(business.updatedAt), account },
      // A slot's Discover coordinates and place cells are copies of the profile's location: left out here.
      slots: slotRows.map(({ latitude: _lat, longitude: _lng, smallCell: _small, largeCell: _large, ...s }) => ({
        ...s,
        startsAt: iso(s.startsAt),
        createdAt: iso(s.createdAt),
        updatedAt: iso(s.updatedAt),
      })),
      bookings: bookingList,
      likes,
      metadata: {
        ...metadata('business', account, now),
        totalSlots: slotRows.length,
        totalBookings: bookingList.length,
        totalLikes: likes.length,
      },
    },
  };
}

/** The customer's export. */
async function exportCustomer(deps: Pick<ServiceDeps, 'db' | 'now' | 'logger'>, userId: string) {
  const { db } = deps;
  const now = deps.now();
  const account = await readAccount(db, userId);
  if (!account) throw new DomainError('NOT_FOUND', MSG.exportProfileFailed);
  const [customer] = await db
    .select({
      fullName: customerProfiles.fullName,
      email: customerProfiles.email,
      phoneNumber: customerProfiles.phoneNumber,
      createdAt: customerProfiles.createdAt,
    })
    .from(customerProfiles)
    .where(eq(customerProfiles.id, userId))
    .limit(1);
  const bookingList = (await readBookings(db, 'customer', userId)).map(({ customer: _, ...b }) => b);
  const likes = await readLikes(deps, 'customer', userId);
  const alertList = await readAlerts(db, userId);
  return {
    fileName: fileName('customer', DEFAULT_TIMEZONE, now),
    data: {
      version: EXPORT_VERSION,
      userType: 'customer' as const,
      profile: {
        id: userId,
        fullName: customer?.fullName ?? account.name,
        email: customer?.email ?? account.email,
        phoneNumber: customer?.phoneNumber ?? null,
        createdAt: customer ? iso(customer.createdAt) : account.createdAt,
        account,
      },
      bookings: bookingList,
      likes,
      alerts: alertList,
      metadata: { ...metadata('customer', account, now), totalBookings: bookingList.length, totalLikes: likes.length },
    },
  };
}

/**
 * The signed-in user's data export: { fileName: '{userType}-data-{YYYY-MM-DD}.json' (the business's
 * local date, Europe/London for customers), data }, timestamps as ISO 8601 strings. Throws NOT_FOUND
 * for a business without a profile or an account that is gone.
 */
export async function exportAccountData(
  deps: Pick<ServiceDeps, 'db' | 'now' | 'logger'>,
  user: { id: string; role: UserType },
): Promise<AccountDataExport> {
  return user.role === 'business' ? exportBusiness(deps, user.id) : exportCustomer(deps, user.id);
}

export type BusinessDataExport = Awaited<ReturnType<typeof exportBusiness>>;
export type CustomerDataExport = Awaited<ReturnType<typeof exportCustomer>>;
export type AccountDataExport = BusinessDataExport | CustomerDataExport;
