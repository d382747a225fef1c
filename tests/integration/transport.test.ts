/**
 * The HTTP transport under attack (docs/decisions/0029, 0030), through the real buildServer:
 * batch size, call-counted limits (the flood guard and the database-backed sign-up and email
 * limits, batched or not), oversize and unreadable bodies, mutations by GET, malformed paths, and
 * answers that never carry Fastify codes, stack frames, runtime texts or SQL.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema/index';
import { THROTTLE_RULES } from '../../server/features/auth/throttle';
import { MSG } from '../../shared/messages';
import { MAX_BATCH_SIZE } from '../../shared/transport';
import { startTestServer, type TestServer } from '../setup/http';
import { expectNoLeak } from '../setup/leaks';
import { createTestDatabase, testClock, type TestDatabase } from '../setup/test-database';

const clock = testClock(new Date('2026-11-23T10:00:00Z'));
let tdb: TestDatabase;
let server: TestServer;
let url: string;
let nextIp = 1;

beforeAll(async () => {
  tdb = await createTestDatabase();
  // X-Forwarded-For is believed, so each test can be its own client address.
  server = await startTestServer(tdb.database, clock.now, { trustProxy: true });
  url = server.url;
});

afterAll(async () => {
  await server.close();
  await tdb.close();
});

/** A client address no other test used. */
function freshIp(): string {
  return `198.51.100.${nextIp++}`;
}

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

/** A raw request; the answer's status and body (checked for leaks on the way). */
async function call(path: string, init: RequestInit & { ip?: string } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  headers.set('x-forwarded-for', init.ip ?? freshIp());
  const res = await fetch(`${url}${path}`, { ...init, headers });
  const text = await res.text();
  expectNoLeak(text);
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

/** POSTs `body` (a string, sent as is) to `path` with the app's Origin. */
function post(path: string, body: string, options: { ip?: string; contentType?: string } = {}) {
  return call(path, {
    method: 'POST',
    ip: options.ip,
    headers: { 'content-type': options.contentType ?? 'application/json', origin: url },
    body,
  });
}

/** A batched mutation request: one call of `procedure` per input. */
function postBatch(procedure: string, inputs: unknown[], ip?: string) {
  const paths = inputs.map(() => procedure).join(',');
  const body = Object.fromEntries(inputs.map((input, i) => [i, { json: input }]));
  return post(`/trpc/${paths}?batch=1`, JSON.stringify(body), { ip });
}

/** The tRPC error message of a single (non-batch) error answer. */
function messageOf(answer: Answer): string | undefined {
  return (answer.json as { error?: { json?: { message?: string } } })?.error?.json?.message;
}

/** The messages of a batch answer's entries (undefined for a successful entry). */
function batchMessages(answer: Answer): Array<string | undefined> {
  expect(Array.isArray(answer.json), answer.text).toBe(true);
  return (answer.json as Array<{ error?: { json?: { message?: string } } }>).map((e) => e.error?.json?.message);
}

async function userCount(): Promise<number> {
  const [row] = await tdb.database.db.select({ n: count() }).from(users);
  return row!.n;
}

let signUps = 0;
/** A valid customer sign-up with a new address. */
function signUp() {
  signUps++;
  return { name: 'Sam Sign-up', email: `signup-${signUps}-${Date.now()}@example.test`, password: 'long-enough-1' };
}

describe('batches', () => {
  it(`answers a batch of ${MAX_BATCH_SIZE} calls and refuses ${MAX_BATCH_SIZE + 1} with a clear 400`, async () => {
    const batch = (n: number) =>
      call(`/trpc/${Array(n).fill('auth.me').join(',')}?batch=1&input=${encodeURIComponent('{}')}`);
    const ok = await batch(MAX_BATCH_SIZE);
    expect(ok.status).toBe(200);
    expect(ok.json).toHaveLength(MAX_BATCH_SIZE);

    const tooMany = await batch(MAX_BATCH_SIZE + 1);
    expect(tooMany.status).toBe(400);
    expect(messageOf(tooMany)).toBe(MSG.batchTooLarge);
  });

  it('refuses an oversize batch of mutations whole: nothing is created', async () => {
    const before = await userCount();
    const answer = await postBatch(
      'auth.registerCustomer',
      Array.from({ length: MAX_BATCH_SIZE + 1 }, () => signUp()),
    );
    expect(answer.status).toBe(400);
    expect(messageOf(answer)).toBe(MSG.batchTooLarge);
    expect(await userCount()).toBe(before);
  });
});

describe('limits count calls, not HTTP requests', () => {
  it('counts each call of a batch against the per-IP mutation flood guard', async () => {
    const guarded = await startTestServer(tdb.database, clock.now, { mutationsPerMinute: MAX_BATCH_SIZE });
    try {
      const logout = (n: number) =>
        fetch(`${guarded.url}/trpc/${Array(n).fill('auth.logout').join(',')}?batch=1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: guarded.url },
          body: '{}',
        });
      expect((await logout(MAX_BATCH_SIZE)).status).toBe(200);
      const over = await logout(1);
      expect(over.status).toBe(429);
      const body = (await over.json()) as Array<{ error: { json: { message: string } } }>;
      expect(body[0]!.error.json.message).toBe(MSG.tooManyRequests);
    } finally {
      await guarded.close();
    }
  });

  it('refuses the 201st registration from one IP within a minute, batched or not, with the sign-up text', async () => {
    const ip = freshIp();
    const before = await userCount();
    const messages: Array<string | undefined> = [];
    const statuses: number[] = [];
    // 200 registrations in batches of 10, then the 201st on its own.
    for (let b = 0; b < 20; b++) {
      const answer = await postBatch(
        'auth.registerCustomer',
        Array.from({ length: MAX_BATCH_SIZE }, () => signUp()),
        ip,
      );
      statuses.push(answer.status);
      messages.push(...batchMessages(answer));
    }
    const last = await post('/trpc/auth.registerCustomer', JSON.stringify({ json: signUp() }), { ip });
    expect(last.status).toBe(429);
    expect(messageOf(last)).toBe(MSG.tooManySignUps);

    const allowed = THROTTLE_RULES.signUpIp.points;
    expect(allowed).toBeLessThan(201);
    expect(messages.filter((m) => m === undefined)).toHaveLength(allowed);
    expect(messages.filter((m) => m === MSG.tooManySignUps)).toHaveLength(200 - allowed);
    expect(statuses.at(-1)).toBe(429);
    expect(await userCount()).toBe(before + allowed);

    // Another client address still signs up.
    const other = await post('/trpc/auth.registerCustomer', JSON.stringify({ json: signUp() }));
    expect(other.status).toBe(200);
  });

  it('limits the emails one address is sent in an hour, whatever the client address', async () => {
    const address = `target-${Date.now()}@example.test`;
    const reset = () => post('/trpc/auth.requestPasswordReset', JSON.stringify({ json: { email: address } }));
    const first = await reset();
    expect(first.status).toBe(200);
    for (let i = 1; i < THROTTLE_RULES.emailAddress.points; i++) {
      // Within the minute: the one-a-minute rule answers first.
      const again = await reset();
      expect([again.status, messageOf(again)]).toEqual([429, MSG.emailLimitWait]);
    }
    const over = await reset();
    expect([over.status, messageOf(over)]).toEqual([429, MSG.emailLimitHour]);
    expect((over.json as { error: { json: { data: { title?: string } } } }).error.json.data.title).toBe(
      MSG.emailLimitTitle,
    );
  });
});

describe('requests the server cannot read', () => {
  it('refuses an oversize body with 413 and a generic body', async () => {
    const before = await userCount();
    const huge = JSON.stringify({ json: { ...signUp(), name: 'x'.repeat(400 * 1024) } });
    const answer = await post('/trpc/auth.registerCustomer', huge);
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: MSG.requestTooLarge });
    expect(await userCount()).toBe(before);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x']])(
    'refuses a mutation sent as %s, changing nothing',
    async (contentType) => {
      const before = await userCount();
      const answer = await post('/trpc/auth.registerCustomer', JSON.stringify({ json: signUp() }), { contentType });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect([MSG.badRequest, undefined]).toContain(messageOf(answer));
      expect(await userCount()).toBe(before);
    },
  );

  it('refuses a mutation sent by GET (no state change)', async () => {
    const before = await userCount();
    const input = encodeURIComponent(JSON.stringify({ json: signUp() }));
    const answer = await call(`/trpc/auth.registerCustomer?input=${input}`);
    expect(answer.status).toBe(405);
    expect(messageOf(answer)).toBe(MSG.badRequest);
    expect(await userCount()).toBe(before);
  });

  it.each([['/%E0%A4%A'], ['/trpc/%ZZ'], ['/trpc/auth.me%E0%A4%A?input=%7B%7D'], ['/%']])(
    'answers a malformed path %s with 400 and a generic body',
    async (path) => {
      const answer = await call(path);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: MSG.badRequest });
      const posted = await post(path, '{}');
      expect(posted.status).toBe(400);
    },
  );

  it.each([
    ['bad JSON', '{"json":'],
    ['input nested deeper than the stack', `{"json":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    [
      'superjson meta deeper than the stack',
      `{"json":{"email":"a"},"meta":{"values":{"email":${'['.repeat(20000)}1${']'.repeat(20000)}}}}`,
    ],
    ['an unknown superjson transformation', '{"json":{"email":"a"},"meta":{"values":{"email":["custom","evil"]}}}'],
    ['a prototype path in superjson meta', '{"json":{},"meta":{"values":{"__proto__.polluted":["Date"]}}}'],
    [
      'referential equalities into the prototype',
      '{"json":{"a":{}},"meta":{"referentialEqualities":{"a":["__proto__"]}}}',
    ],
    ['an array where the input object belongs', '{"json":[1,2]}'],
  ])('answers %s with a generic 400, never the runtime text', async (_label, body) => {
    const answer = await post('/trpc/auth.login', body);
    expect(answer.status).toBe(400);
    expect(messageOf(answer)).toBe(MSG.badRequest);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers an unknown procedure with a 404 that does not echo tRPC texts', async () => {
    const answer = await call('/trpc/nope.nothing');
    expect(answer.status).toBe(404);
    expect(messageOf(answer)).toBe(MSG.badRequest);
  });
});

describe('text that no form can type', () => {
  it.each([
    ['a NUL character', 'Sam\u0000Smith', MSG.textControlCharacters],
    ['a lone surrogate', 'Sam \uD800Smith', MSG.textUnreadable],
    ['a line break in a one-line field', 'Sam\r\nBcc: victim@example.test', MSG.textOneLine],
    ['a text-direction control in a one-line field', 'Sam \u202Ehtims', MSG.textDirectionControls],
    ['an escape character in a one-line field', 'Sam\u001b[2JSmith', MSG.textControlCharacters],
    ['a next-line character in a one-line field', 'Sam\u0085Smith', MSG.textOneLine],
  ])('refuses %s with its own 400 text, creating nothing', async (_label, name, message) => {
    const before = await userCount();
    const answer = await post('/trpc/auth.registerCustomer', JSON.stringify({ json: { ...signUp(), name } }));
    expect(answer.status).toBe(400);
    expect(messageOf(answer)).toBe(message);
    expect(
      (answer.json as { error: { json: { data: { fieldErrors: unknown } } } }).error.json.data.fieldErrors,
    ).toEqual({ name: message });
    expect(await userCount()).toBe(before);
  });

  it('refuses a NUL character in a query input too (no 500)', async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { slug: 'studio\u0000' } }));
    const answer = await call(`/trpc/businesses.bySlug?input=${input}`);
    expect([answer.status, messageOf(answer)]).toEqual([400, MSG.textControlCharacters]);
  });
});
