/** Data & Privacy for businesses and customers: the data export and account deletion (ADR 0014). */
import { deleteAccountInput } from '../../../shared/schemas/settings';
import { deleteAccount } from '../../features/account/deletion.service';
import { exportAccountData } from '../../features/account/export.service';
import { authedProcedure } from '../procedures';
import { router } from '../trpc';

export const accountRouter = router({
  /** → { fileName, data }, the signed-in user's export file (exportAccountData). */
  exportData: authedProcedure.query(({ ctx }) => exportAccountData(ctx, ctx.user)),

  /** { confirmation, currentPassword } → { ok: true }; deletes the account (deleteAccount), clears the cookie. */
  delete: authedProcedure.input(deleteAccountInput).mutation(async ({ ctx, input }) => {
    const result = await deleteAccount(ctx, ctx.user, input);
    ctx.cookies.clearSession();
    return result;
  }),
});
