/**
 * Prepared statements (server/db/prepared.ts, docs/decisions/0044): prepared through drizzle's own
 * `.prepare()` on the database or transaction they are given, run on its connection, values encoded
 * as drizzle would.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedAs, preparedStatement } from '../../server/db/prepared';
import { sessions, users } from '../../server/db/schema/index';
import { createUser } from '../factories';
import { createTestDatabase, type TestDatabase } from '../setup/test-database';

const nameOf = preparedStatement<{ id: string }>()('test_user_name', (db, p) =>
  db.select({ name: users.name }).from(users).where(eq(users.id, p.id)),
);
const rename = preparedStatement<{ id: string; name: string }>()('test_user_rename', (db, p) =>
  db
    .update(users)
    .set({ name: encodedAs(p.name, users.name) })
    .where(eq(users.id, p.id)),
);
const setExpiry = preparedStatement<{ id: string; expiresAt: Date }>()('test_session_expiry', (db, p) =>
  db
    .update(sessions)
    .set({ expiresAt: encodedAs(p.expiresAt, sessions.expiresAt) })
    .where(eq(sessions.id, p.id))
    .returning({ expiresAt: sessions.expiresAt }),
);

let one: TestDatabase;
let two: TestDatabase;
beforeAll(async () => {
  [one, two] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

describe('prepared statements', () => {
  it('run inside the transaction they are given: its uncommitted rows are seen, its rollback undoes them', async () => {
    const db = one.database.db;
    const user = await createUser(db, { role: 'customer', name: 'Before' });
    expect(await nameOf(db, { id: user.id })).toEqual([{ name: 'Before' }]);
    const rolledBack = new Error('roll back');
    await expect(
      db.transaction(async (tx) => {
        await rename(tx, { id: user.id, name: 'Inside' });
        expect(await nameOf(tx, { id: user.id })).toEqual([{ name: 'Inside' }]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await nameOf(db, { id: user.id })).toEqual([{ name: 'Before' }]);
    await db.transaction((tx) => rename(tx, { id: user.id, name: 'Committed' }));
    expect(await nameOf(db, { id: user.id })).toEqual([{ name: 'Committed' }]);
  });

  it('run on the database they are given, whichever one built them', async () => {
    const a = await createUser(one.database.db, { role: 'customer', name: 'In one' });
    const b = await createUser(two.database.db, { role: 'customer', name: 'In two' });
    expect(await nameOf(one.database.db, { id: a.id })).toEqual([{ name: 'In one' }]);
    expect(await nameOf(two.database.db, { id: b.id })).toEqual([{ name: 'In two' }]);
    expect(await nameOf(two.database.db, { id: a.id })).toEqual([]);
  });

  it('encode a value wrapped by encodedAs as its column does (a Date for a timestamp)', async () => {
    const db = one.database.db;
    const user = await createUser(db, { role: 'customer' });
    await db.insert(sessions).values({ id: 'prepared-test', userId: user.id, expiresAt: new Date() });
    const expiresAt = new Date('2031-05-06T07:08:09.000Z');
    expect(await setExpiry(db, { id: 'prepared-test', expiresAt })).toEqual([{ expiresAt }]);
  });
});
