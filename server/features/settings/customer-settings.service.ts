/**
 * Customer settings. The name lives twice, customer_profiles.full_name (shown to businesses) and
 * users.name (the header's greeting); both change together.
 */
import { eq, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import type { UpdateCustomerNameInput } from '../../../shared/schemas/settings';
import type { ServiceDeps } from '../../core/deps';
import { DomainError } from '../../core/errors';
import { customerProfiles, users } from '../../db/schema/index';

/** The customer's { fullName, email }, the account's name without a profile. Throws NOT_FOUND for a gone account. */
export async function getCustomerSettings(deps: Pick<ServiceDeps, 'db'>, customerId: string) {
  const [row] = await deps.db
    .select({
      fullName: sql<string>`coalesce(${customerProfiles.fullName}, ${users.name})`,
      email: users.email,
    })
    .from(users)
    .leftJoin(customerProfiles, eq(customerProfiles.id, users.id))
    .where(eq(users.id, customerId))
    .limit(1);
  if (!row) {
    throw new DomainError('NOT_FOUND', MSG.customerProfileLoadFailed, { title: MSG.errorLoadingProfileTitle });
  }
  return row;
}

/** 'Update Name': both names become `input.fullName`, a missing profile created. NOT_FOUND for a gone account. */
export async function updateCustomerName(
  deps: Pick<ServiceDeps, 'db' | 'now'>,
  customerId: string,
  input: UpdateCustomerNameInput,
): Promise<{ fullName: string }> {
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ name: input.fullName, updatedAt: deps.now() })
      .where(eq(users.id, customerId))
      .returning({ email: users.email });
    if (!user) {
      throw new DomainError('NOT_FOUND', MSG.customerProfileLoadFailed, { title: MSG.errorUpdatingProfileTitle });
    }
    await tx
      .insert(customerProfiles)
      .values({ id: customerId, fullName: input.fullName, email: user.email })
      .onConflictDoUpdate({ target: customerProfiles.id, set: { fullName: input.fullName } });
    return { fullName: input.fullName };
  });
}
