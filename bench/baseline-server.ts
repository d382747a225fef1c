/**
 * Target B of `npm run bench`: a bare Fastify + postgres.js server answering the bench's URLs in
 * tRPC's wire format (batch GETs and POSTs, SSE for bookings.onChange) by running exactly the SQL
 * the app issues (bench/baseline-sql.ts) and the same pure rules (shared/zoned-time,
 * shared/slot-categories, the email templates). No tRPC, drizzle, zod, superjson, helmet, cookie
 * plugin, rate limiter or request logging: the floor the app's framework adds to. Like the app, it
 * sends the emails its bookings queue: the primary claims them with the app's dispatcher SQL,
 * renders them with the app's templates and posts them to the provider with plain `fetch`
 * (`sendQueuedEmails`; no Resend client, no retry bookkeeping).
 *
 * Statements are prepared (postgres.js's default for tagged queries; BENCH_BASELINE_PREPARE=false
 * sends them unnamed, as drizzle does without `.prepare()`). Env: DATABASE_URL (required), HOST,
 * PORT, APP_URL (Origin check), DB_POOL (default 10 per process, as the app), WEB_CONCURRENCY
 * (worker processes, default 1), RESEND_BASE_URL and RESEND_API_KEY (the provider the queued
 * emails go to; unset: they stay queued), EMAIL_FROM. Like the app (docs/decisions/0028), a
 * primary forks the workers with node:cluster and they share the port, so both targets run the
 * same number of processes.
 */
import cluster from 'node:cluster';
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import postgres from 'postgres';
import { CLAIM_MS, DISPATCH_BATCH, KICK_DELAY_MS, unsubscribeHeaders } from '../server/email/dispatcher';
import { EMAIL_INTENT_KINDS } from '../server/email/outbox';
import { renderEmail } from '../server/email/render';
import { bookingRequestedEmail, requestReceivedEmail } from '../server/email/templates';
import { KINDS_NEEDING_ACTIVE_BOOKING } from '../shared/notifications';
import { isReservedSlug, PUBLIC_SLUG_PATTERN } from '../shared/reserved-slugs';
import { slotCategory } from '../shared/slot-categories';
import { businessTypeLabel } from '../shared/categories';
import {
  categoryLabels,
  nearestRings,
  windowRange,
  type DiscoverySort,
  type DiscoveryWindow,
} from '../shared/discovery';
import { boundingBox, boxWithin, EARTH_RADIUS_MILES, roundDegrees } from '../shared/geo';
import { isPast, localNow } from '../shared/zoned-time';
import {
  cellOf,
  coveringCells,
  FIRST_INSTANT_MAX_CELLS,
  gridFor,
  SMALL_GRID,
} from '../server/features/discovery/cells';
import { encodeCursor } from '../server/features/discovery/cursor';
import * as Q from './baseline-sql';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('DATABASE_URL is required');
const HOST = process.env.HOST ?? '127.0.0.1';
const PORT = Number(process.env.PORT ?? 3361);
const APP_ORIGIN = new URL(process.env.APP_URL ?? `http://localhost:${PORT}`).origin;
const prepare = process.env.BENCH_BASELINE_PREPARE !== 'false';

const sql = postgres(DATABASE_URL, { max: Number(process.env.DB_POOL ?? 10), onnotice: () => {} });
// The driver set-up drizzle's postgres-js adapter applies: dates, times and timestamps stay text.
const transparent = (v: unknown) => v;
for (const type of ['1184', '1082', '1083', '1114', '1182', '1185', '1115', '1231']) {
  (sql.options.parsers as Record<string, unknown>)[type] = transparent;
  (sql.options.serializers as Record<string, unknown>)[type] = transparent;
}
(sql.options.serializers as Record<string, unknown>)['114'] = transparent;
(sql.options.serializers as Record<string, unknown>)['3802'] = transparent;
const run = <T extends readonly unknown[] = unknown[][]>(
  text: string,
  params: unknown[],
  db: Pick<postgres.Sql, 'unsafe'> = sql,
) => db.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare }).values() as unknown as Promise<T>;

const SESSION_TTL_MS = 30 * 24 * 3600_000;
const SESSION_RENEW_MS = 15 * 24 * 3600_000;
const SLOT_TAKEN = 'This slot is no longer available. Please choose another time.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface User {
  id: string;
  email: string;
  name: string;
  role: 'business' | 'customer';
  isVerified: boolean;
}

class HttpError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const JSONRPC_CODES: Record<string, number> = {
  BAD_REQUEST: -32600,
  UNAUTHORIZED: -32001,
  FORBIDDEN: -32003,
  NOT_FOUND: -32004,
  CONFLICT: -32009,
  INTERNAL_SERVER_ERROR: -32603,
};

function cookieToken(req: FastifyRequest): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === 'lastslot_session') return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** The session's user for the request's cookie, with the app's renewal and expiry rules. */
async function sessionUser(req: FastifyRequest): Promise<User | null> {
  const token = cookieToken(req);
  if (!token) return null;
  const id = createHash('sha256').update(token).digest('hex');
  const [row] = await run<[string, string, Date, string, string, string, string, Date | null][]>(Q.SESSION_SQL, [
    id,
    1,
  ]);
  if (!row) return null;
  const now = Date.now();
  const expiresAt = new Date(row[2]).getTime();
  if (expiresAt <= now) {
    await run(Q.SESSION_DELETE_SQL, [id]);
    return null;
  }
  if (expiresAt - now < SESSION_RENEW_MS) {
    await run(Q.SESSION_RENEW_SQL, [new Date(now + SESSION_TTL_MS).toISOString(), id]);
  }
  return { id: row[3], email: row[4], name: row[5], role: row[6] as User['role'], isVerified: row[7] !== null };
}

function batchInputs(req: FastifyRequest, count: number): unknown[] {
  const raw =
    req.method === 'GET' ? (req.query as { input?: string }).input : (req.body as Record<string, unknown> | undefined);
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {})) as Record<string, { json?: unknown }>;
  return Array.from({ length: count }, (_, i) => parsed[String(i)]?.json);
}

type Handler = (req: FastifyRequest, input: unknown, user: () => Promise<User | null>) => Promise<unknown>;

/**
 * An answer with values JSON cannot carry as themselves (Dates sent as ISO strings), with the
 * transformer's description of where they are: tRPC's wire shape `{ json, meta }`, as superjson
 * writes it. Any other answer is sent as `{ json }`.
 */
class Described {
  constructor(
    readonly json: unknown,
    readonly meta: { values: Record<string, ['Date']>; v: 1 },
  ) {}
}

async function bySlug(_req: FastifyRequest, input: unknown) {
  const slug = String((input as { slug?: unknown })?.slug ?? '')
    .trim()
    .toLowerCase();
  if (isReservedSlug(slug) || !PUBLIC_SLUG_PATTERN.test(slug))
    throw new HttpError('NOT_FOUND', 404, 'Business not found');
  const [b] = await run<unknown[][]>(Q.BUSINESS_BY_SLUG_SQL, [slug, 1]);
  if (!b) throw new HttpError('NOT_FOUND', 404, 'Business not found');
  const timezone = b[9] as string;
  const now = new Date();
  const today = localNow(timezone, now).date;
  const rows = await run<string[][]>(Q.REQUESTABLE_SLOTS_SQL, [b[0], false, today, 'cancelled', true]);
  const slots = rows
    .filter((s) => s[1]! > today || !isPast(s[1]!, s[2]!, timezone, now))
    .map((s) => ({ id: s[0], date: s[1], startTime: s[2], endTime: s[3], description: s[4] }));
  return {
    business: {
      id: b[0],
      businessName: b[1],
      slug: b[2],
      businessType: b[3],
      description: b[4],
      address: b[5],
      phoneNumber: b[6],
      emailAddress: b[7],
      openingHours: b[8],
      timezone,
    },
    slots,
  };
}

async function requireBusiness(user: () => Promise<User | null>): Promise<User> {
  const u = await user();
  if (!u) throw new HttpError('UNAUTHORIZED', 401, 'Please log in to continue.');
  if (u.role !== 'business') throw new HttpError('FORBIDDEN', 403, 'Forbidden');
  return u;
}

async function listMine(_req: FastifyRequest, _input: unknown, user: () => Promise<User | null>) {
  const u = await requireBusiness(user);
  type SlotRow = [string, string | null, string, string, string, string, boolean, boolean, string, string, string];
  const [rows, flags, pending] = await Promise.all([
    run<SlotRow[]>(Q.BUSINESS_SLOTS_SQL, [u.id]),
    run<[string, boolean, boolean][]>(Q.SLOT_FLAGS_SQL, [u.id]),
    run<[string, string, string, string][]>(Q.SLOT_PENDING_SQL, [u.id, 'pending']),
  ]);
  if (rows.length === 0) throw new HttpError('NOT_FOUND', 404, 'Business not found');
  const timezone = rows[0]![0];
  const flagsBySlot = new Map(flags.map((f) => [f[0], f]));
  const pendingBySlot = new Map(pending.map((p) => [p[0], p]));
  const now = new Date();
  const out = [];
  for (const r of rows) {
    if (r[1] === null) continue;
    const slot = {
      id: r[1],
      date: r[2],
      startTime: r[3],
      endTime: r[4],
      description: r[5],
      isBooked: r[6],
      addedToSystem: r[7],
      customerName: r[8],
      customerEmail: r[9],
      customerPhone: r[10],
    };
    const f = flagsBySlot.get(r[1]);
    const { category, unconfirmed, past } = slotCategory(
      {
        date: slot.date,
        startTime: slot.startTime,
        isBooked: slot.isBooked,
        addedToSystem: slot.addedToSystem,
        customerName: slot.customerName,
        hasPendingRequest: Boolean(f?.[1]),
        hasDeclinedRequest: Boolean(f?.[2]),
        timezone,
      },
      now,
    );
    const p = category === 'requested' ? pendingBySlot.get(r[1]) : undefined;
    const request = p ? { bookingId: p[1], customerName: p[2], customerEmail: p[3] } : null;
    out.push(Object.assign(slot, { category, unconfirmed, past, request }));
  }
  return out;
}

async function requests(_req: FastifyRequest, _input: unknown, user: () => Promise<User | null>) {
  const u = await requireBusiness(user);
  const rows = await run<unknown[][]>(Q.BUSINESS_REQUESTS_SQL, [u.id, 'pending']);
  const now = new Date();
  return rows
    .filter((r) => !isPast(r[3] as string, r[4] as string, r[9] as string, now))
    .map((r) => ({
      id: r[0],
      notes: r[1],
      slot: { id: r[2], date: r[3], startTime: r[4], endTime: r[5], description: r[6] },
      customer: { name: r[7], email: r[8] },
    }));
}

function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return url.origin === APP_ORIGIN || url.host === req.headers.host;
  } catch {
    return false;
  }
}

let kickQueued = false;
/** Asks the primary to send the queued emails; kicks of one event-loop turn go as one message, as the app's. */
function kickMailSender(): void {
  if (kickQueued || !process.send) return;
  kickQueued = true;
  setImmediate(() => {
    kickQueued = false;
    if (process.connected) process.send?.('kick');
  });
}

async function requestBooking(req: FastifyRequest, input: unknown, user: () => Promise<User | null>) {
  const u = await user();
  if (!u) throw new HttpError('UNAUTHORIZED', 401, 'Please log in to book a slot.');
  if (!sameOrigin(req)) throw new HttpError('FORBIDDEN', 403, 'Forbidden');
  if (u.role !== 'customer') throw new HttpError('FORBIDDEN', 403, 'Business accounts cannot request appointments.');
  if (!u.isVerified) throw new HttpError('FORBIDDEN', 403, 'Please verify your email before making bookings.');
  const slotId = (input as { slotId?: unknown })?.slotId;
  const notes = (input as { notes?: unknown })?.notes;
  if (typeof slotId !== 'string' || !UUID.test(slotId)) throw new HttpError('BAD_REQUEST', 400, 'Invalid slot');
  let created: { id: string; businessId: string };
  try {
    created = (await sql.begin(async (tx) => {
      const now = new Date();
      const nowIso = now.toISOString();
      const [slot] = await run<[string, string, string, string, string, string, string, string][]>(
        Q.LOCK_SLOT_SQL,
        [slotId, 1],
        tx,
      );
      if (!slot) throw new HttpError('NOT_FOUND', 404, 'This slot no longer exists.');
      const timezone = slot[6];
      const [open] = await run<string[][]>(
        Q.SLOT_REQUESTABLE_SQL,
        [slot[0], false, localNow(timezone, now).date, 'cancelled', true, 1],
        tx,
      );
      if (!open || isPast(open[1]!, open[2]!, timezone, now)) throw new HttpError('CONFLICT', 409, SLOT_TAKEN);
      const [booking] = await run<[string][]>(
        Q.INSERT_BOOKING_SQL,
        [nowIso, 'pending', typeof notes === 'string' ? notes.trim() : null, slot[0], u.id, slot[5], nowIso, nowIso],
        tx,
      );
      const [f] = await run<(string | null)[][]>(Q.BOOKING_FACTS_SQL, [booking![0]], tx);
      const appointment = {
        businessName: f![10]!,
        description: f![6]!,
        date: f![7]!,
        startTime: f![8]!,
        endTime: f![9]!,
        address: f![11] ?? null,
      };
      const dashboardUrl = `${APP_ORIGIN}/dashboard`;
      const notices = [
        { kind: 'booking_requested', userId: f![4]!, to: f![14]!, role: 'business' },
        { kind: 'request_received', userId: f![5]!, to: f![16]!, role: 'customer' },
      ] as const;
      for (const n of notices) {
        const token = randomBytes(20).toString('hex');
        const footer = {
          reason: n.role,
          unsubscribeUrl: `${APP_ORIGIN}/unsubscribe/${token}`,
          settingsUrl: dashboardUrl,
        };
        const email =
          n.role === 'business'
            ? bookingRequestedEmail(n.to, { appointment, footer, customerName: f![17]!, dashboardUrl })
            : requestReceivedEmail(n.to, { appointment, footer, dashboardUrl });
        const hash = createHash('sha256').update(token).digest('hex');
        await run(
          Q.INSERT_NOTIFICATION_SQL,
          [
            email.to,
            email.subject,
            email.template,
            JSON.stringify(email.props),
            null,
            n.kind,
            n.userId,
            f![0]!,
            `${n.kind}:${f![0]}`,
            hash,
            nowIso,
            nowIso,
            nowIso,
          ],
          tx,
        );
      }
      return { id: booking![0], businessId: slot[5] };
    })) as { id: string; businessId: string };
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new HttpError('CONFLICT', 409, SLOT_TAKEN);
    throw err;
  }
  await sql.notify(
    'booking_events',
    JSON.stringify({ bookingId: created.id, businessId: created.businessId, customerId: u.id }),
  );
  kickMailSender();
  return { id: created.id };
}

/**
 * discovery.search as the app answers the bench's searches (a position, no cursor): the same
 * window, bounding box, covering cells and category rules (shared/, cells.ts), the app's statement
 * for the sort, category and grid, its rows mapped as the app maps them.
 */
async function discoverySearch(_req: FastifyRequest, input: unknown) {
  const q = input as {
    window: DiscoveryWindow;
    latitude: number;
    longitude: number;
    miles: number;
    sort?: DiscoverySort;
    category?: string | null;
    timezone?: string;
    limit?: number;
  };
  const sort = q.sort ?? 'soonest';
  const limit = q.limit ?? 20;
  const labels = q.category ? categoryLabels(q.category) : null;
  if (!Number.isFinite(q.latitude) || !Number.isFinite(q.longitude) || (q.category && !labels)) {
    throw new HttpError(
      'BAD_REQUEST',
      400,
      'This request could not be understood. Please reload the page and try again.',
    );
  }
  const centre = { latitude: roundDegrees(q.latitude), longitude: roundDegrees(q.longitude) };
  const now = new Date();
  const { from, to } = windowRange(q.window, q.timezone ?? 'Europe/London', now);
  const R = EARTH_RADIUS_MILES;
  const { latitude: lat, longitude: lng } = centre;
  const head = [R, lat, lat, lng, false, now.toISOString(), from.toISOString(), to.toISOString()];
  const first = { start: from.toISOString(), distance: -1, id: '00000000-0000-0000-0000-000000000000' };
  const after =
    sort === 'soonest'
      ? [first.start, first.start, R, lat, lat, lng, first.distance, first.id]
      : [R, lat, lat, lng, first.distance, first.start, first.id];
  // A cell's rows and the page: both the limit. With a category, each cell is read per label.
  const L = limit + 1;
  const byLabel = labels ? [labels.join('\n')] : [];
  const text =
    sort === 'soonest'
      ? labels
        ? Q.DISCOVERY_SOONEST_CATEGORY_SQL
        : Q.DISCOVERY_SOONEST_SQL
      : labels
        ? Q.DISCOVERY_NEAREST_CATEGORY_SQL
        : Q.DISCOVERY_NEAREST_SQL;
  type Row = [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    number,
    number,
    string,
    string,
    string,
    string,
    number,
  ];
  // The app's rings for a nearest search, each over the cells of its grid.
  let rows: Row[] = [];
  for (const miles of sort === 'nearest'
    ? nearestRings(q.miles, 0, to.getTime() - from.getTime(), !labels)
    : [q.miles]) {
    const box = boundingBox(centre, miles);
    const grid = gridFor(miles);
    const cells = coveringCells(grid, box).join(',');
    const bbox = [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude, R, lat, lat, lng, miles];
    const search = [...head, ...bbox, ...after];
    // Soonest: the cut on index entries, then the exact read where it fell short.
    const values =
      sort === 'soonest'
        ? [cells, ...byLabel, ...search, L, 'cancelled', true, L, L, L, ...search, 'cancelled', true, L, L, L, L]
        : [cells, ...byLabel, ...search, 'cancelled', true, L, L];
    // Soonest without a category: first the page at its first instant, as the app tries it.
    if (sort === 'soonest' && !labels) {
      const centreCell = cellOf(SMALL_GRID, lat, lng);
      const head2 = [cells, false, now.toISOString(), from.toISOString(), to.toISOString(), ...bbox.slice(0, 4), 1];
      const firstText = grid === SMALL_GRID ? Q.DISCOVERY_FIRST_INSTANT_SQL : Q.firstInstantOverLargeCells();
      const [first] = await run<[string | null, number | null][]>(firstText, [
        ...head2,
        centreCell,
        ...search,
        'cancelled',
        true,
        1,
        limit,
      ]);
      if (first?.[0] && first[1] !== null) {
        const reach = Number(first[1]);
        const near = boxWithin(boundingBox(centre, reach), box);
        const nearBox = [
          near.minLatitude,
          near.maxLatitude,
          near.minLongitude,
          near.maxLongitude,
          R,
          lat,
          lat,
          lng,
          reach,
        ];
        const nearCells = coveringCells(SMALL_GRID, near);
        rows =
          nearCells.length > FIRST_INSTANT_MAX_CELLS
            ? []
            : await run<Row[]>(Q.DISCOVERY_FIRST_INSTANT_PAGE_SQL, [
                nearCells.join(','),
                ...head,
                ...nearBox,
                ...after,
                first[0],
                'cancelled',
                true,
                L,
              ]);
        if (rows.length === L) break;
      }
    }
    rows = await run<Row[]>(grid === SMALL_GRID ? text : Q.overLargeCells(text), values);
    if (rows.length > limit) break;
  }
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const answer = {
    results: page.map((r) => ({
      slotId: r[0],
      businessId: r[1],
      businessName: r[9],
      slug: r[10],
      category: businessTypeLabel(r[11]),
      distanceMiles: Math.round(Number(r[13]) * 100) / 100,
      date: r[2],
      startTime: r[3],
      endTime: r[4],
      timezone: r[12],
      startsAt: new Date(r[6]).toISOString(),
      description: r[5],
      latitude: r[7],
      longitude: r[8],
    })),
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ sort, startsAt: new Date(last[6]), distance: Number(last[13]), id: last[0] })
        : null,
    centre: { ...centre, place: null },
  };
  if (page.length === 0) return answer;
  return new Described(answer, {
    values: Object.fromEntries(page.map((_, i) => [`results.${i}.startsAt`, ['Date']])),
    v: 1,
  });
}

const queries: Record<string, Handler> = {
  'discovery.search': discoverySearch,
  'businesses.bySlug': bySlug,
  'slots.listMine': listMine,
  'bookings.requests': requests,
};
const mutations: Record<string, Handler> = { 'bookings.request': requestBooking };

async function handleBatch(req: FastifyRequest, reply: FastifyReply, table: Record<string, Handler>) {
  const paths = (req.params as { path: string }).path.split(',');
  const inputs = batchInputs(req, paths.length);
  let userPromise: Promise<User | null> | undefined;
  const user = () => (userPromise ??= sessionUser(req));
  const results = await Promise.all(
    paths.map(async (path, i) => {
      const handler = table[path];
      try {
        if (!handler) throw new HttpError('NOT_FOUND', 404, `No procedure ${path}`);
        const answer = await handler(req, inputs[i], user);
        return { status: 200, body: { result: { data: answer instanceof Described ? answer : { json: answer } } } };
      } catch (err) {
        const e =
          err instanceof HttpError
            ? err
            : new HttpError('INTERNAL_SERVER_ERROR', 500, 'There was a problem with your request.');
        if (!(err instanceof HttpError)) console.error(`baseline: ${path} failed:`, err);
        return {
          status: e.status,
          body: {
            error: {
              json: {
                message: e.message,
                code: JSONRPC_CODES[e.code],
                data: { code: e.code, httpStatus: e.status, path },
              },
            },
          },
        };
      }
    }),
  );
  const statuses = new Set(results.map((r) => r.status));
  const status = statuses.size === 1 ? results[0]!.status : 207;
  return reply
    .code(status)
    .type('application/json')
    .send(JSON.stringify(results.map((r) => r.body)));
}

// One LISTEN connection for the process, fanned out in-process (as the app's BookingEventHub).
const events = new EventEmitter();
events.setMaxListeners(0);
interface BookingEvent {
  bookingId: string | null;
  businessId: string | null;
  customerId: string | null;
}

async function onChange(req: FastifyRequest, reply: FastifyReply) {
  const u = await sessionUser(req);
  if (!u) {
    return reply.code(401).send({ error: { json: { message: 'Please log in to continue.', code: -32001 } } });
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
  });
  let seq = 0;
  const send = (bookingId: string | null) =>
    res.write(`id: ${Date.now()}-${seq++}\ndata: ${JSON.stringify({ json: { bookingId } })}\n\n`);
  res.write('event: connected\ndata: {}\n\n');
  send(null);
  const listener = (e: BookingEvent) => {
    if (u.role === 'business' ? e.businessId === u.id : e.customerId === u.id) send(e.bookingId);
  };
  events.on('event', listener);
  const ping = setInterval(() => res.write('event: ping\ndata: {}\n\n'), 15_000);
  req.raw.on('close', () => {
    clearInterval(ping);
    events.off('event', listener);
  });
}

async function main() {
  await sql.listen('booking_events', (payload) => {
    try {
      events.emit('event', JSON.parse(payload) as BookingEvent);
    } catch {
      // malformed payload: ignored, as the app does
    }
  });
  const app = Fastify({ logger: false, routerOptions: { maxParamLength: 5000 } });
  app.get('/healthz', async () => {
    await sql`select 1`;
    return { status: 'ok' };
  });
  app.get('/trpc/bookings.onChange', onChange);
  app.get('/trpc/:path', (req, reply) => handleBatch(req, reply, queries));
  app.post('/trpc/:path', (req, reply) => handleBatch(req, reply, mutations));
  await app.listen({ host: HOST, port: PORT });
  console.log(`baseline worker listening (pid ${process.pid})`);
  const stop = async () => {
    await app.close();
    await sql.end({ timeout: 2 });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

const RESEND_BASE_URL = process.env.RESEND_BASE_URL;
const RESEND_API_KEY = process.env.RESEND_API_KEY ?? '';
const EMAIL_FROM = process.env.EMAIL_FROM ?? 'LastSlot <no-reply@lastslot.local>';

type ClaimedRow = [string, string, string, string | null, Record<string, unknown> | null, string, string, ...unknown[]];

/**
 * One run of the floor's mail sender, the app's dispatcher without its framework (and its batch,
 * claim length and kick delay): the due-intents look-up (none in the bench), then claims of up to
 * DISPATCH_BATCH due messages with the app's claim statement until one comes back short; each
 * claim's messages rendered with the app's templates (`renderEmail`), posted in one call to the
 * provider's batch endpoint with `fetch` (the bench's booking emails carry no attachments, which
 * that endpoint refuses), and marked sent in one statement. A failed call leaves its messages
 * claimed (logged; the bench counts them as not sent).
 */
async function sendQueuedEmails(): Promise<void> {
  const now = () => new Date().toISOString();
  const intents = EMAIL_INTENT_KINDS;
  await run(Q.OUTBOX_DUE_INTENTS_SQL, ['pending', now(), now(), ...intents, DISPATCH_BATCH]);
  for (;;) {
    const t = now();
    const claimUntil = new Date(Date.now() + CLAIM_MS).toISOString();
    const taken = await run<ClaimedRow[]>(Q.OUTBOX_CLAIM_SQL, [
      'pending',
      t,
      t,
      ...intents,
      DISPATCH_BATCH,
      ...KINDS_NEEDING_ACTIVE_BOOKING,
      'confirmed',
      'completed',
      claimUntil,
    ]);
    // 0 id, 1 to, 2 subject, 3 template, 4 props, 5 html, 6 text ... 13 status
    const claimed = taken.filter((r) => r[13] === 'pending');
    if (claimed.length > 0) {
      const emails: {
        from: string;
        to: string;
        subject: string;
        html: string;
        text: string;
        headers?: Record<string, string>;
      }[] = [];
      for (const r of claimed) {
        const body = r[3] && !r[5] ? await renderEmail(r[3], r[4] ?? {}) : { html: r[5], text: r[6] };
        emails.push({
          from: EMAIL_FROM,
          to: r[1],
          subject: r[2],
          html: body.html,
          text: body.text,
          headers: unsubscribeHeaders(r[4]),
        });
      }
      const res = await fetch(`${RESEND_BASE_URL}/emails/batch`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${RESEND_API_KEY}`,
          'content-type': 'application/json',
          'x-batch-validation': 'permissive',
        },
        body: JSON.stringify(emails),
      });
      const answer = (await res.json()) as { data?: { id: string }[]; errors?: unknown[] };
      if (!res.ok || answer.data?.length !== emails.length) {
        console.error(`baseline: email batch refused (${res.status})`, answer);
      } else {
        const rows = claimed.map((r, i) => ({
          id: r[0],
          provider_message_id: answer.data![i]!.id,
          html: emails[i]!.html,
          text: emails[i]!.text,
        }));
        await run(Q.OUTBOX_MARK_SENT_SQL, ['sent', null, now(), JSON.stringify(rows)]);
      }
    }
    if (taken.length < DISPATCH_BATCH) return;
  }
}

/**
 * The primary's mail sender: a run KICK_DELAY_MS after a worker's kick (kicks meanwhile share it;
 * one arriving during a run makes it go round once more) and every 2 s, as the app's dispatcher.
 */
function startMailSender(): void {
  if (!RESEND_BASE_URL) return;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  const go = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await sendQueuedEmails();
      } while (again);
    } catch (err) {
      console.error('baseline: sending emails failed:', err);
    } finally {
      running = false;
    }
  };
  cluster.on('message', (_worker, message) => {
    if (message !== 'kick' || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void go();
    }, KICK_DELAY_MS);
  });
  setInterval(() => void go(), 2000).unref();
}

/**
 * The primary: forks WEB_CONCURRENCY workers (each runs `main`), sends the emails they queue, and
 * exits 1 if one dies, so a broken start shows at once; SIGTERM / SIGINT stop every worker, then
 * the primary exits 0.
 */
function supervise() {
  const workers = Math.max(1, Number(process.env.WEB_CONCURRENCY ?? 1));
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  startMailSender();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.values(cluster.workers ?? {}).every((w) => !w || w.isDead())) process.exit(0);
      return;
    }
    console.error(`baseline worker ${worker.process.pid} died (${code ?? signal}); stopping`);
    process.exit(1);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (cluster.isPrimary) supervise();
else
  main().catch((err) => {
    console.error('baseline server failed to start:', err);
    process.exit(1);
  });
