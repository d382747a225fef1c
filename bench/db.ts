/**
 * The bench's throw-away PostgreSQL database: created on the local server, migrated with the app's
 * own migrations, seeded with a deterministic data set in bulk SQL, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase } from '../server/db/client';
import { hashToken } from '../server/features/auth/tokens';

/** Server URL without a database name (trust auth on 127.0.0.1). */
export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432';

/** Slots each seeded business owns (10 days x 4 start times). */
export const SLOTS_PER_BUSINESS = 40;

/** The bench database's name and URL. */
export interface BenchDatabase {
  name: string;
  url: string;
}

/** `serverUrl` with its path replaced by `/name`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates an empty database `lastslot_bench_<8 hex>` on `serverUrl` and returns its name and URL.
 * The caller must drop it with `dropBenchDatabase` (also on failure).
 */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `lastslot_bench_${randomBytes(4).toString('hex')}`;
  const admin = postgres(databaseUrl(serverUrl, 'postgres'), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return { name, url: databaseUrl(serverUrl, name) };
}

/** Drops database `name` on `serverUrl`, closing whatever is still connected to it. Never throws. */
export async function dropBenchDatabase(serverUrl: string, name: string): Promise<boolean> {
  if (!/^lastslot_bench_[0-9a-f]{8}$/.test(name)) throw new Error(`refusing to drop ${name}`);
  const admin = postgres(databaseUrl(serverUrl, 'postgres'), { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    return true;
  } catch (err) {
    console.error(`could not drop database ${name}: ${(err as Error).message}`);
    return false;
  } finally {
    await admin.end({ timeout: 5 }).catch(() => {});
  }
}

/** Applies the app's migrations (drizzle/) through `openDatabase(...).migrate()`. */
export async function migrateBenchDatabase(url: string): Promise<void> {
  const database = await openDatabase({ url, max: 1 });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}

/** Sizes of the seeded data set. */
export interface SeedSize {
  businesses: number;
  customers: number;
}

/** The data-set size for `scale` (1 = 10,000 businesses x 40 slots, 2,000 customers). */
export function seedSize(scale: number): SeedSize {
  return {
    businesses: Math.max(20, Math.round(10_000 * scale)),
    customers: Math.max(64, Math.round(2_000 * scale)),
  };
}

/** Cookie token of the seeded session of business number `i` (1-based). */
export const businessToken = (i: number) => `bench-business-session-${i}`;
/** Cookie token of the seeded session of customer number `i` (1-based). */
export const customerToken = (i: number) => `bench-customer-session-${i}`;
/** Public page slug of business number `i` (1-based). */
export const businessSlug = (i: number) => `bench-${String(i).padStart(5, '0')}`;

/**
 * Seeds `size` deterministically (ids are md5-derived, so every run has the same data) with bulk
 * `insert ... select generate_series`:
 * - businesses 1..N: a users row (role business, verified), a business profile (slug
 *   `bench-00001`, open 09:00-18:00 every day, Europe/London) and a session valid for 30 days;
 * - customers 1..M: users + customer_profiles rows and a session each;
 * - 40 slots per business over the next 10 local days (10:00, 11:30, 14:00, 16:30, one hour each);
 *   per business, slot j%10=3 is booked (confirmed booking), j%20=7 has a pending request and
 *   j%40=11 was declined, so 33 slots are open on the public page and 2 requests are waiting.
 * Ends with ANALYZE. Returns the number of rows of each table written.
 */
export async function seedBenchDatabase(url: string, size: SeedSize): Promise<Record<string, number>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const N = size.businesses;
  const M = size.customers;
  const expires = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
  try {
    // md5-derived ids with the RFC 4122 version (4) and variant (8) digits, which zod's z.uuid() requires.
    await sql.unsafe(
      `create or replace function bench_uuid(t text) returns uuid language sql immutable as
       $$ select (substr(md5(t), 1, 12) || '4' || substr(md5(t), 14, 3) || '8' || substr(md5(t), 18))::uuid $$`,
    );
    await sql.begin(async (tx) => {
      // Weekly schedule as the app stores it (shared/opening-hours.ts): weekday -> open/close.
      const hours = JSON.stringify(
        Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
            d,
            { open: '09:00', close: '18:00' },
          ]),
        ),
      );
      await tx.unsafe(
        `insert into users (id, email, password_hash, role, name, email_verified_at)
         select bench_uuid('business-' || i), 'business-' || i || '@bench.lastslot.test',
                '$argon2id$v=19$m=19456,t=2,p=1$bench$bench', 'business', 'Owner ' || i, now()
         from generate_series(1, $1::int) i`,
        [N],
      );
      await tx.unsafe(
        `insert into business_profiles (id, business_name, address, phone_number, slug, email_address, description,
                                        business_type, opening_hours, timezone)
         select bench_uuid('business-' || i), 'Bench Studio ' || i, i || ' High Street, London, SW1A 1AA',
                '020 7946 ' || lpad((i % 10000)::text, 4, '0'), 'bench-' || lpad(i::text, 5, '0'),
                'business-' || i || '@bench.lastslot.test',
                'Cuts, colour and styling by a friendly team. Walk-ins welcome; last-minute slots posted daily.',
                (array['Hair Salon', 'Barber', 'Nail Salon', 'Massage', 'Beauty Salon'])[1 + i % 5],
                $2::jsonb, 'Europe/London'
         from generate_series(1, $1::int) i`,
        [N, hours],
      );
      await tx.unsafe(
        `insert into users (id, email, password_hash, role, name, email_verified_at)
         select bench_uuid('customer-' || i), 'customer-' || i || '@bench.lastslot.test',
                '$argon2id$v=19$m=19456,t=2,p=1$bench$bench', 'customer', 'Customer ' || i, now()
         from generate_series(1, $1::int) i`,
        [M],
      );
      await tx.unsafe(
        `insert into customer_profiles (id, full_name, email, phone_number)
         select bench_uuid('customer-' || i), 'Customer ' || i, 'customer-' || i || '@bench.lastslot.test',
                '07700 ' || lpad((i % 1000000)::text, 6, '0')
         from generate_series(1, $1::int) i`,
        [M],
      );
      // Sessions: id = hex SHA-256 of the cookie token, as server/features/auth/session.ts stores it.
      await tx.unsafe(
        `insert into sessions (id, user_id, expires_at)
         select encode(sha256(convert_to('bench-business-session-' || i, 'UTF8')), 'hex'),
                bench_uuid('business-' || i), $2::timestamptz
         from generate_series(1, $1::int) i
         union all
         select encode(sha256(convert_to('bench-customer-session-' || i, 'UTF8')), 'hex'),
                bench_uuid('customer-' || i), $2::timestamptz
         from generate_series(1, $3::int) i`,
        [N, expires, M],
      );
      // Slot j (0..39) of business i: day 1 + j/4 from today (London), start time j%4.
      await tx.unsafe(
        `insert into slots (id, business_id, date, start_time, end_time, description, is_booked,
                            customer_id, customer_name, customer_email, customer_phone)
         select bench_uuid('slot-' || i || '-' || j), bench_uuid('business-' || i),
                (now() at time zone 'Europe/London')::date + 1 + j / 4,
                (array['10:00', '11:30', '14:00', '16:30'])[1 + j % 4],
                (array['11:00', '12:30', '15:00', '17:30'])[1 + j % 4],
                (array['Haircut', 'Colour', 'Blow dry', 'Beard trim', 'Manicure'])[1 + (i + j) % 5],
                j % 10 = 3,
                case when j % 10 = 3 then bench_uuid('customer-' || (1 + (i * 40 + j) % $2::int)) end,
                case when j % 10 = 3 then 'Customer ' || (1 + (i * 40 + j) % $2::int) end,
                case when j % 10 = 3 then 'customer-' || (1 + (i * 40 + j) % $2::int) || '@bench.lastslot.test' end,
                null
         from generate_series(1, $1::int) i, generate_series(0, ${SLOTS_PER_BUSINESS - 1}) j`,
        [N, M],
      );
      await tx.unsafe(
        `insert into bookings (slot_id, customer_id, business_id, status, declined_by_business, notes)
         select bench_uuid('slot-' || i || '-' || j), bench_uuid('customer-' || (1 + (i * 40 + j) % $2::int)),
                bench_uuid('business-' || i),
                (case when j % 10 = 3 then 'confirmed' when j % 20 = 7 then 'pending' else 'cancelled' end)::booking_status,
                j % 40 = 11, case when j % 20 = 7 then 'First visit, please call on arrival.' end
         from generate_series(1, $1::int) i, generate_series(0, ${SLOTS_PER_BUSINESS - 1}) j
         where j % 10 = 3 or j % 20 = 7 or j % 40 = 11`,
        [N, M],
      );
    });
    await sql.unsafe('analyze');
    const counts: Record<string, number> = {};
    for (const table of ['users', 'business_profiles', 'customer_profiles', 'sessions', 'slots', 'bookings']) {
      const [row] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`);
      counts[table] = row?.n ?? 0;
    }
    // The bulk hashes must be what the app computes for a cookie token.
    const [check] = await sql.unsafe<{ id: string }[]>(`select id from sessions where id = $1`, [
      hashToken(businessToken(1)),
    ]);
    if (!check) throw new Error('seeded session ids do not match server/features/auth/tokens.ts hashToken()');
    return counts;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
