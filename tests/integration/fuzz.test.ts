/**
 * Property-based fuzzing of every procedure over real HTTP (docs/decisions/0030). The procedures
 * are read from the router itself, so a new one is fuzzed without touching this file. Each is
 * called with hostile input (NUL, lone surrogates, line breaks, 100 KB strings, SQL-ish text,
 * prototype keys, wrong types, deep nesting, hostile superjson meta) by an anonymous visitor, a
 * signed-in verified customer and a signed-in verified business. Whatever the input: never a 5xx,
 * never an internal text in an error answer, and a refused call changes no row of the main
 * tables. The throttle's own counters (`rate_limits`) may move on a refusal, by design.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../server/features/auth/session';
import { appRouter } from '../../server/trpc/router';
import { WEEKDAYS } from '../../shared/opening-hours';
import { createBusiness, createSlot, createUser, TEST_PASSWORD } from '../factories/index';
import { startTestServer, type TestServer } from '../setup/http';
import { expectNoLeak } from '../setup/leaks';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-23T10:00:00Z'));
let tdb: TestDatabase;
let server: TestServer;

/** Tables a refused call must leave exactly as they were. */
const WATCHED_TABLES = [
  'users',
  'sessions',
  'one_time_tokens',
  'business_profiles',
  'customer_profiles',
  'slots',
  'bookings',
  'customer_likes',
  'email_outbox',
  'contact_messages',
] as const;

/** A checksum of every row of the watched tables. */
async function checksum(): Promise<string> {
  const parts = WATCHED_TABLES.map(
    (t) => `(select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) from ${t} r)`,
  ).join(" || ':' || ");
  const rows = await tdb.database.db.execute<{ sum: string }>(sql.raw(`select ${parts} as sum`));
  const list = Array.isArray(rows) ? rows : (rows as { rows: Array<{ sum: string }> }).rows;
  return list[0]!.sum;
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  // Every call comes from its own X-Forwarded-For address and the flood guard is out of the way,
  // so the limits do not hide the procedures behind 429s.
  server = await startTestServer(tdb.database, clock.now, { trustProxy: true, mutationsPerMinute: 1_000_000 });
});

afterAll(async () => {
  await server.close();
  await tdb.close();
});

type Role = 'anonymous' | 'customer' | 'business';

interface ProcedureInfo {
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  /** The top-level keys of the input object, when the schema is an object. */
  keys: string[];
}

/** The keys of a zod object schema, looking through optional/nullable wrappers. */
function keysOf(schema: unknown): string[] {
  let s = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown } | undefined;
  for (let i = 0; i < 5 && s; i++) {
    if (s.shape && typeof s.shape === 'object') return Object.keys(s.shape);
    s = typeof s.unwrap === 'function' ? (s.unwrap() as typeof s) : undefined;
  }
  return [];
}

const PROCEDURES: ProcedureInfo[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: ProcedureInfo['type']; inputs: unknown[] } }>,
).map(([path, proc]) => ({ path, type: proc._def.type, keys: proc._def.inputs.flatMap(keysOf) }));

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uDBFF\uDFFF\uD800',
  'line\r\nBcc: victim@example.test',
  'one\ntwo',
  '\u2028',
  "'; drop table users; --",
  'select * from users where 1=1',
  '__proto__',
  'constructor',
  'prototype',
  '😀👩‍👩‍👧 café Ω',
  '%00%0d%0a',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  'DELETE',
  TEST_PASSWORD,
  'someone@example.test',
  'Someone@Example.TEST ',
  '00000000-0000-0000-0000-000000000000',
  '2026-11-24',
  '10:00',
  '24:00',
  'Hair Salon',
  'Europe/London',
  'a'.repeat(100_000),
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
);

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'a', '');

/** Any JSON value, hostile strings and prototype keys included, up to a small depth. */
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(hostileKey, fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/**
 * Deeply nested arrays (deeper than a recursive walker's stack would like), written as JSON text
 * only when sent, so neither fast-check nor the test recurses through them.
 */
class DeepInput {
  constructor(readonly depth: number) {}
  /** The JSON text, written directly (JSON.stringify would recurse once per level). */
  text(): string {
    return '['.repeat(this.depth) + ']'.repeat(this.depth);
  }
  [fc.toStringMethod](): string {
    return `DeepInput(${this.depth})`;
  }
}
const deepValue = fc.integer({ min: 1_000, max: 5_000 }).map((depth) => new DeepInput(depth));

let unique = 0;

/**
 * A valid value for an input field, by its name, so a hostile value in one field reaches that
 * field's own checks and, past them, the service and the database. `who` gives the real ids.
 */
function validValue(key: string, who: Actor): unknown {
  const n = `${Date.now().toString(36)}-${unique++}`;
  const values: Record<string, unknown> = {
    name: 'Sam Smith',
    fullName: 'Sam Smith',
    contactName: 'Sam Smith',
    businessName: `Studio ${n}`,
    email: `fuzz-${n}@example.test`,
    newEmail: `fuzz-new-${n}@example.test`,
    password: 'long-enough-1',
    newPassword: 'long-enough-2',
    currentPassword: TEST_PASSWORD,
    slug: `fuzz-${n}`,
    description: 'A friendly studio',
    category: 'Hair Salon',
    address: '1 High Street, London',
    phone: '020 7946 0000',
    timezone: 'Europe/London',
    schedule: Object.fromEntries(WEEKDAYS.map((d) => [d, { isActive: true, start: '09:00', end: '18:00' }])),
    token: 'a'.repeat(32),
    slotId: who.slotId ?? '00000000-0000-4000-8000-000000000000',
    businessId: who.businessId ?? '00000000-0000-4000-8000-000000000000',
    bookingId: '00000000-0000-4000-8000-000000000000',
    favourited: true,
    date: '2026-11-25',
    startTime: '10:00',
    endTime: '11:00',
    notes: 'First visit',
    subject: 'Hello',
    message: 'Hello there',
    confirmation: 'DELETE',
    lastEventId: null,
  };
  return key in values ? values[key] : 'value';
}

/** A valid input for `proc` as `who` (undefined for procedures without an object input). */
function validInput(proc: ProcedureInfo, who: Actor): Record<string, unknown> | undefined {
  if (proc.keys.length === 0) return undefined;
  return Object.fromEntries(proc.keys.map((k) => [k, validValue(k, who)]));
}

/** What replaces a field: a hostile string mostly, any hostile value otherwise. */
const fieldValue = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: hostileValue });

/**
 * How a call's input is built from the valid one: one field replaced (or appended to, so a
 * valid value carries the hostile text), the whole input replaced, or deeply nested.
 */
type InputPlan =
  | { kind: 'field'; key: number; append: boolean; value: unknown }
  | { kind: 'whole'; value: unknown }
  | { kind: 'deep'; value: DeepInput };

const inputPlan: fc.Arbitrary<InputPlan> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('field' as const),
      key: fc.nat(),
      append: fc.boolean(),
      value: fieldValue,
    }),
  },
  { weight: 2, arbitrary: hostileValue.map((value) => ({ kind: 'whole' as const, value })) },
  { weight: 1, arbitrary: deepValue.map((value) => ({ kind: 'deep' as const, value })) },
);

function inputFrom(plan: InputPlan, proc: ProcedureInfo, who: Actor): unknown {
  if (plan.kind !== 'field') return plan.value;
  const base = validInput(proc, who);
  if (!base) return plan.value;
  const key = proc.keys[plan.key % proc.keys.length]!;
  const valid = base[key];
  base[key] =
    plan.append && typeof valid === 'string' && typeof plan.value === 'string' ? valid + plan.value : plan.value;
  return base;
}

/** superjson transformations, real and made up, that a hostile `meta` may ask for. */
const TRANSFORMATIONS: unknown[] = [
  ['custom', 'evil'],
  ['class', 'Nope'],
  ['symbol', 'x'],
  ['typed-array', 'Nope'],
  'Date',
  'bigint',
  'set',
  'map',
  'regexp',
  'Error',
  'undefined',
  'number',
  'nope',
  42,
];

/**
 * superjson envelopes for `proc`: plain, or with `meta` asking for a hostile transformation at
 * the root, at one of the input's fields or at a prototype path, or with referential equalities.
 */
function metaFor(proc: ProcedureInfo): fc.Arbitrary<unknown> {
  const path = fc.constantFrom('', ...proc.keys, '__proto__', 'constructor.prototype', 'a.b.c', '0');
  const transformation = fc.constantFrom(...TRANSFORMATIONS);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(path, transformation)
        .map(([p, t]) => (p === '' ? { values: t } : { values: JSON.parse(JSON.stringify({ [p]: t })) as unknown })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(path, path).map(([a, b]) => ({ referentialEqualities: { [a]: [b] } })),
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>({ v: 99 }, 'not an object', [], null, { values: null }) },
  );
}

interface Actor {
  role: Role;
  cookie: string | null;
  /** The business's own slot, or the business a customer may book with. */
  slotId?: string;
  businessId?: string;
}

/** A fresh verified customer or business with its own session (a call may end or delete it). */
async function actor(role: Role): Promise<Actor> {
  const db = tdb.database.db;
  const { user: business } = await createBusiness(db);
  const slot = await createSlot(db, business.id, { date: '2026-11-24', startTime: '10:00', endTime: '11:00' });
  if (role === 'anonymous') return { role, cookie: null, slotId: slot.id, businessId: business.id };
  const userId = role === 'customer' ? (await createUser(db, { role: 'customer' })).id : business.id;
  const { token } = await createSession(db, userId, clock.now());
  return { role, cookie: `lastslot_session=${token}`, slotId: slot.id, businessId: business.id };
}

let ipCounter = 0;

/** Calls `proc` over HTTP as `who` with `input` wrapped in superjson (with `meta` when given). */
async function callOverHttp(proc: ProcedureInfo, who: Actor, input: unknown, meta: unknown) {
  const json = input instanceof DeepInput ? input.text() : JSON.stringify(input);
  const envelope =
    input === undefined && meta === undefined
      ? undefined
      : `{"json":${json ?? 'null'}${meta === undefined ? '' : `,"meta":${JSON.stringify(meta)}`}}`;
  const headers: Record<string, string> = {
    'x-forwarded-for': `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`,
  };
  if (who.cookie) headers.cookie = who.cookie;
  const base = `${server.url}/trpc/${proc.path}`;
  const res =
    proc.type === 'query'
      ? await fetch(envelope === undefined ? base : `${base}?input=${encodeURIComponent(envelope)}`, {
          headers,
        })
      : await fetch(base, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', origin: server.url },
          body: envelope ?? '',
        });
  return { status: res.status, text: await res.text() };
}

// Subscriptions (bookings.onChange) stream until the session ends: not fuzzed here; their input
// schema goes through the same safeText builder and the same error formatter.
const FUZZED = PROCEDURES.filter((p) => p.type !== 'subscription');

describe('fuzz: every procedure over HTTP', () => {
  it('finds the procedures in the router', () => {
    expect(FUZZED.length).toBeGreaterThan(40);
    expect(FUZZED.map((p) => p.path)).toContain('auth.registerCustomer');
  });

  it.each(FUZZED.map((p) => [p.path, p] as const))(
    '%s: no 5xx, no internal text, no change on refusal',
    async (_path, proc) => {
      const roles = ['anonymous', 'customer', 'business'] as const;
      // Besides the random runs: a NUL, a lone surrogate and a line break appended to each field
      // in turn, as a customer and as a business, so every field's hygiene is tried on every run.
      const examples: Array<[Role, InputPlan, unknown]> = proc.keys.flatMap((_k, key) =>
        (['customer', 'business'] as const).map((role, r): [Role, InputPlan, unknown] => [
          role,
          { kind: 'field', key, append: true, value: ['\u0000', '\uD800', '\r\nBcc: x@example.test'][(key + r) % 3] },
          undefined,
        ]),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom<Role>(...roles), inputPlan, metaFor(proc), async (role, plan, meta) => {
          const who = await actor(role);
          const input = inputFrom(plan, proc, who);
          const before = await checksum();
          const answer = await callOverHttp(proc, who, input, meta);
          expect(answer.status, answer.text.slice(0, 500)).toBeLessThan(500);
          if (answer.status >= 400) {
            expectNoLeak(answer.text);
            expect(await checksum(), `${proc.path} changed data on a ${answer.status}`).toBe(before);
          }
        }),
        { numRuns: 4, examples },
      );
    },
    60_000,
  );
});
