/**
 * Data & Privacy, shared by businesses and customers (dashboards spec §2 "Data & Privacy", §3
 * "Data export file", §4/§5 "Account deletion", §8 "Data export", "Deletion").
 */
import { deleteAccountInput } from '../../../shared/schemas/settings';
import { deleteAccount } from '../../features/account/deletion.service';
import { exportAccountData } from '../../features/account/export.service';
import { authedProcedure } from '../procedures';
import { router } from '../trpc';

export const accountRouter = router({
  /**
   * The signed-in user's data export: { fileName: '{userType}-data-{date}.json', data } with
   * version '2.0' (see export.service.ts). A query: it changes nothing. NOT_FOUND 'Could not load
   * your profile…' when the profile is missing; UNAUTHORIZED for visitors.
   */
  exportData: authedProcedure.query(({ ctx }) => exportAccountData(ctx, ctx.user)),

  /**
   * Deletes the signed-in account. Input { confirmation: 'DELETE', currentPassword }. Output
   * { ok: true }; every session ends and this browser's cookie is cleared. BAD_REQUEST 'Please type
   * DELETE to confirm account deletion'; BAD_REQUEST 'Your current password is incorrect.';
   * TOO_MANY_REQUESTS after too many wrong passwords; UNAUTHORIZED for visitors.
   */
  delete: authedProcedure.input(deleteAccountInput).mutation(async ({ ctx, input }) => {
    const result = await deleteAccount(ctx, ctx.user, input);
    ctx.cookies.clearSession();
    return result;
  }),
});
