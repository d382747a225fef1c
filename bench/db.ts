/**
 * The bench's throw-away PostgreSQL database: created on the local server, migrated with the app's
 * own migrations, seeded with a deterministic data set in bulk SQL, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase } from '../server/db/client';
import { hashToken } from '../server/features/auth/tokens';
import { ALL_CATEGORIES } from '../shared/categories';

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
      // JSON text cast to jsonb by the server: a jsonb parameter would be serialised again by the
      // driver and stored as one JSON string rather than the object the app writes.
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
                $2::text::jsonb, 'Europe/London'
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
                            customer_id, customer_name, customer_email, customer_phone, starts_at)
         select bench_uuid('slot-' || i || '-' || j), bench_uuid('business-' || i),
                (now() at time zone 'Europe/London')::date + 1 + j / 4,
                (array['10:00', '11:30', '14:00', '16:30'])[1 + j % 4],
                (array['11:00', '12:30', '15:00', '17:30'])[1 + j % 4],
                (array['Haircut', 'Colour', 'Blow dry', 'Beard trim', 'Manicure'])[1 + (i + j) % 5],
                j % 10 = 3,
                case when j % 10 = 3 then bench_uuid('customer-' || (1 + (i * 40 + j) % $2::int)) end,
                case when j % 10 = 3 then 'Customer ' || (1 + (i * 40 + j) % $2::int) end,
                case when j % 10 = 3 then 'customer-' || (1 + (i * 40 + j) % $2::int) || '@bench.lastslot.test' end,
                null,
                ((now() at time zone 'Europe/London')::date + 1 + j / 4
                  + (array['10:00', '11:30', '14:00', '16:30'])[1 + j % 4]::time) at time zone 'Europe/London'
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

/** Discover's data set at scale 1: 100,000 businesses with 10 slots each (1,000,000 slots). */
export const DISCOVERY_BUSINESSES = 100_000;
export const DISCOVERY_SLOTS_PER_BUSINESS = 10;

/**
 * UK cities the Discover data set clusters around: name, centre (degrees) and share of the
 * businesses (per mille, adding up to 1000).
 */
export const DISCOVERY_CITIES: ReadonlyArray<{ name: string; latitude: number; longitude: number; share: number }> = [
  { name: 'London', latitude: 51.5074, longitude: -0.1278, share: 300 },
  { name: 'Birmingham', latitude: 52.4862, longitude: -1.8904, share: 70 },
  { name: 'Manchester', latitude: 53.4808, longitude: -2.2426, share: 80 },
  { name: 'Leeds', latitude: 53.8008, longitude: -1.5491, share: 55 },
  { name: 'Glasgow', latitude: 55.8642, longitude: -4.2518, share: 50 },
  { name: 'Liverpool', latitude: 53.4084, longitude: -2.9916, share: 45 },
  { name: 'Newcastle', latitude: 54.9783, longitude: -1.6178, share: 35 },
  { name: 'Sheffield', latitude: 53.3811, longitude: -1.4701, share: 35 },
  { name: 'Bristol', latitude: 51.4545, longitude: -2.5879, share: 40 },
  { name: 'Edinburgh', latitude: 55.9533, longitude: -3.1883, share: 40 },
  { name: 'Cardiff', latitude: 51.4816, longitude: -3.1791, share: 30 },
  { name: 'Nottingham', latitude: 52.9548, longitude: -1.1581, share: 35 },
  { name: 'Leicester', latitude: 52.6369, longitude: -1.1398, share: 25 },
  { name: 'Southampton', latitude: 50.9097, longitude: -1.4044, share: 25 },
  { name: 'Brighton', latitude: 50.8225, longitude: -0.1372, share: 25 },
  { name: 'Belfast', latitude: 54.5973, longitude: -5.9301, share: 25 },
  { name: 'Coventry', latitude: 52.4068, longitude: -1.5197, share: 20 },
  { name: 'Plymouth', latitude: 50.3755, longitude: -4.1427, share: 15 },
  { name: 'Norwich', latitude: 52.6309, longitude: 1.2974, share: 15 },
  { name: 'York', latitude: 53.96, longitude: -1.0873, share: 35 },
];

/**
 * Seeds Discover's data set deterministically (md5-derived ids and positions): `businesses`
 * businesses `disc-000001`… (users + profiles with a pin near one of DISCOVERY_CITIES, up to about
 * 12 miles out and denser near the centre; 2% hidden from Discover; categories cycling through the
 * whole list) and DISCOVERY_SLOTS_PER_BUSINESS slots each, every half hour over the next 72 hours
 * from now (London time, 30 minutes long; start instant and listed coordinates filled as the app
 * fills them; a repeated autumn hour keeps its first slot), 10% booked and 5% with a pending request from one of the first `customers`
 * customers of `seedBenchDatabase`. PostgreSQL fills each slot's place cells (generated columns).
 * With `firstBusiness`, only businesses `firstBusiness`..`businesses` are written: a data set seeded
 * up to N grows to M (> N) with `seedDiscoveryData(url, M, customers, N + 1)`, the same rows as seeding M
 * at once. Ends with VACUUM ANALYZE. Returns the rows written per table (counting the whole data set).
 */
export async function seedDiscoveryData(
  url: string,
  businesses: number,
  customers: number,
  firstBusiness = 1,
): Promise<Record<string, number>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const cities = DISCOVERY_CITIES.map((c, k) => {
    const lo = DISCOVERY_CITIES.slice(0, k).reduce((sum, x) => sum + x.share, 0);
    return `(${c.latitude}, ${c.longitude}, ${lo}, ${lo + c.share})`;
  }).join(', ');
  const categories = `array[${ALL_CATEGORIES.map((c) => `'${c.replace(/'/g, "''")}'`).join(', ')}]`;
  try {
    await sql.begin(async (tx) => {
      // h(i, n): the n-th 32-bit slice of md5('disc-' || i), as a fraction in [0, 1).
      await tx.unsafe(
        `create temporary table disc_points on commit drop as
         with h as (
           select i,
                  ('x' || substr(md5('disc-' || i), 1, 8))::bit(32)::bigint & 2147483647 as a,
                  (('x' || substr(md5('disc-' || i), 9, 8))::bit(32)::bigint & 2147483647) / 2147483648.0 as u,
                  (('x' || substr(md5('disc-' || i), 17, 8))::bit(32)::bigint & 2147483647) / 2147483648.0 as v,
                  (('x' || substr(md5('disc-' || i), 25, 8))::bit(32)::bigint & 2147483647) / 2147483648.0 as w
           from generate_series($2::int, $1::int) i
         )
         select h.i, h.a,
                c.lat + (h.u - 0.5) * 0.35 * h.w as lat,
                c.lng + (h.v - 0.5) * 0.56 * h.w as lng
         from h join (values ${cities}) as c(lat, lng, lo, hi) on h.a % 1000 >= c.lo and h.a % 1000 < c.hi`,
        [businesses, firstBusiness],
      );
      await tx.unsafe(
        `insert into users (id, email, password_hash, role, name, email_verified_at)
         select bench_uuid('disc-business-' || i), 'disc-business-' || i || '@bench.lastslot.test',
                '$argon2id$v=19$m=19456,t=2,p=1$bench$bench', 'business', 'Owner ' || i, now()
         from disc_points`,
      );
      await tx.unsafe(
        `insert into business_profiles (id, business_name, address, slug, email_address, description, business_type,
                                        timezone, latitude, longitude, location_precision, location_source, discoverable)
         select bench_uuid('disc-business-' || i), 'Nearby Studio ' || i, i || ' Market Street',
                'disc-' || lpad(i::text, 6, '0'), 'disc-business-' || i || '@bench.lastslot.test',
                'Short-notice appointments, posted as they free up.',
                (${categories})[1 + i % ${ALL_CATEGORIES.length}], 'Europe/London', lat, lng, 'exact', 'pin', a % 50 <> 0
         from disc_points`,
      );
      // Slot j of business i: half hour j * 14 + a % 14 from the next half hour (distinct per business).
      await tx.unsafe(
        `insert into slots (id, business_id, date, start_time, end_time, description, is_booked, starts_at, latitude, longitude,
                            business_category)
         select bench_uuid('disc-slot-' || p.i || '-' || j), bench_uuid('disc-business-' || p.i),
                l.local::date, to_char(l.local, 'HH24:MI'),
                case when to_char(l.local, 'HH24:MI') = '23:30' then '24:00' else to_char(l.local + interval '30 minutes', 'HH24:MI') end,
                (array['Haircut', 'Colour', 'Massage', 'Manicure', 'Facial'])[1 + (p.i + j) % 5],
                (p.i + j) % 10 = 3,
                (l.local::date + to_char(l.local, 'HH24:MI')::time) at time zone 'Europe/London',
                case when p.a % 50 <> 0 then p.lat end, case when p.a % 50 <> 0 then p.lng end,
                case when p.a % 50 <> 0 then (${categories})[1 + p.i % ${ALL_CATEGORIES.length}] end
         from disc_points p, generate_series(0, ${DISCOVERY_SLOTS_PER_BUSINESS - 1}) j,
              lateral (select (date_trunc('hour', now()) + interval '1 hour'
                               + (j * 14 + p.a % 14) * interval '30 minutes') at time zone 'Europe/London' as local) l
         on conflict do nothing`,
      );
      await tx.unsafe(
        `insert into bookings (slot_id, customer_id, business_id, status, notes)
         select bench_uuid('disc-slot-' || i || '-' || j), bench_uuid('customer-' || (1 + (i + j) % $1::int)),
                bench_uuid('disc-business-' || i), 'pending', null
         from disc_points, generate_series(0, ${DISCOVERY_SLOTS_PER_BUSINESS - 1}) j
         where (i + j) % 20 = 7 and exists (select 1 from slots where id = bench_uuid('disc-slot-' || i || '-' || j))`,
        [customers],
      );
    });
    // As autovacuum leaves a table that has settled: Discover orders a cell's rows on index entries
    // alone, which needs the visibility map set (else every entry is checked against its row).
    await sql.unsafe('vacuum analyze');
    const counts: Record<string, number> = {};
    for (const [name, where] of [
      ['discovery businesses', `from business_profiles where slug like 'disc-%'`],
      ['discovery slots', `from slots where latitude is not null`],
    ] as const) {
      const [row] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n ${where}`);
      counts[name] = row?.n ?? 0;
    }
    return counts;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Rounds `v` to 3 decimal places, as the client rounds a customer's position. */
const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * `count` Discover searches, deterministic, as the bench sends them in turn: around a city picked
 * by its share of the businesses, up to about 3 miles off its centre; windows mostly within hours
 * ('2h', '1h', '4h', 'today', 'tomorrow' as 4:2:2:1:1), 1 to 25 miles (mostly 2 to 10), soonest
 * first 4 in 5, a category 1 in 4.
 */
export function discoverySearches(count: number) {
  const windows = ['2h', '1h', '2h', '4h', 'today', '2h', '1h', '4h', 'tomorrow', '2h'] as const;
  const miles = [5, 2, 10, 5, 1, 25, 5, 2, 10, 5] as const;
  const categories = [null, 'Hair Services', null, null, 'Barber Shop', null, null, 'Nails', null, null, null, null];
  const cities: (typeof DISCOVERY_CITIES)[number][] = [];
  for (const c of DISCOVERY_CITIES) for (let k = 0; k < c.share / 5; k++) cities.push(c);
  return Array.from({ length: count }, (_, i) => {
    const city = cities[(i * 7919) % cities.length]!;
    const dLat = (((i * 104729) % 1000) / 1000 - 0.5) * 0.08;
    const dLng = (((i * 130363) % 1000) / 1000 - 0.5) * 0.12;
    return {
      window: windows[i % windows.length]!,
      latitude: round3(city.latitude + dLat),
      longitude: round3(city.longitude + dLng),
      miles: miles[(i * 3) % miles.length]!,
      sort: i % 5 === 4 ? ('nearest' as const) : ('soonest' as const),
      category: categories[(i * 5) % categories.length] ?? null,
    };
  });
}
