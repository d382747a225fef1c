/**
 * Idempotent user actions (docs/decisions/0034). The transaction starts by inserting the (user, key)
 * row, so a concurrent attempt with the same key waits: after a commit it finds the answer, after a
 * rollback it claims the key itself.
 */
import { createHash } from 'node:crypto';
import { and, eq, lte, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import type { Db, Tx } from '../../db/client';
import { encodedAs, preparedStatement } from '../../db/prepared';
import { idempotencyKeys } from '../../db/schema/index';

/** How long a key's answer is replayed; older rows are ignored and swept. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;

/** Who sent the key, for which action, with which input. */
export interface IdempotencyClaim {
  userId: string;
  key: string;
  /** E.g. 'bookings.request'; a key belongs to one action. */
  procedure: string;
  /** Without the key; compared by a hash of its canonical JSON. */
  input: unknown;
}

/** JSON with object keys sorted at every level, so equal inputs hash equally. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

function requestHash(procedure: string, input: unknown): string {
  return createHash('sha256')
    .update(`${procedure}\n${canonicalJson(input ?? null)}`)
    .digest('hex');
}

/**
 * Runs `work` in one transaction, idempotently when `claim` is given. `replayed`: an earlier attempt's
 * stored answer, `work` did not run, so skip the after-commit effects. `answer` must be plain JSON.
 * Throws UNPROCESSABLE_CONTENT when the key was used for another action or input.
 */
export async function idempotentTransaction<A>(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  claim: IdempotencyClaim | null,
  work: (tx: Tx) => Promise<A>,
): Promise<{ answer: A; replayed: boolean }> {
  if (!claim) return { answer: await deps.db.transaction(work), replayed: false };
  const hash = requestHash(claim.procedure, claim.input);
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
    // Waits while another transaction holds the key; an expired row is taken over.
    const { userId, key, procedure } = claim;
    const claimed = await claimKey(tx, { userId, key, procedure, hash, now, expiredBefore });
    if (claimed.length === 0) {
      const [stored] = await storedClaim(tx, { userId, key });
      if (!stored || stored.procedure !== claim.procedure || stored.requestHash !== hash) {
        throw new DomainError('UNPROCESSABLE_CONTENT', MSG.idempotencyKeyReused);
      }
      return { answer: stored.response as A, replayed: true };
    }
    const answer = await work(tx);
    await storeAnswer(tx, { userId, key, response: JSON.stringify(answer) });
    return { answer, replayed: false };
  });
}

/** Returns the key when claimed, nothing when a live row holds it. */
const claimKey = preparedStatement<{
  userId: string;
  key: string;
  procedure: string;
  hash: string;
  now: Date;
  expiredBefore: Date;
}>()('idempotency_claim', (db, p) =>
  db
    .insert(idempotencyKeys)
    .values({ userId: p.userId, key: p.key, procedure: p.procedure, requestHash: p.hash, createdAt: p.now })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: {
        procedure: encodedAs(p.procedure, idempotencyKeys.procedure),
        requestHash: encodedAs(p.hash, idempotencyKeys.requestHash),
        response: null,
        createdAt: encodedAs(p.now, idempotencyKeys.createdAt),
      },
      setWhere: lte(idempotencyKeys.createdAt, encodedAs(p.expiredBefore, idempotencyKeys.createdAt)),
    })
    .returning({ key: idempotencyKeys.key }),
);

const storedClaim = preparedStatement<{ userId: string; key: string }>()('idempotency_stored', (db, p) =>
  db
    .select({
      procedure: idempotencyKeys.procedure,
      requestHash: idempotencyKeys.requestHash,
      response: idempotencyKeys.response,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, p.userId), eq(idempotencyKeys.key, p.key)))
    .limit(1),
);

const storeAnswer = preparedStatement<{ userId: string; key: string; response: string }>()(
  'idempotency_answer',
  (db, p) =>
    db
      .update(idempotencyKeys)
      .set({ response: sql`${p.response}::jsonb` })
      .where(and(eq(idempotencyKeys.userId, p.userId), eq(idempotencyKeys.key, p.key))),
);

/** Deletes keys older than the replay window. Output: rows deleted. */
export async function deleteExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}
