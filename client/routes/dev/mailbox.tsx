/**
 * /dev/mailbox (development only, docs/decisions/0005 and 0032). The page is a separate lazy chunk,
 * imported only when the build includes the mailbox (`import.meta.env.LASTSLOT_DEV_MAILBOX`, set by
 * vite.config.ts); a production build folds the import away, so no mailbox code ships, and the
 * path is the 404 page there.
 */
import { createFileRoute, lazyRouteComponent, notFound } from '@tanstack/react-router';

// The define is used directly in each condition (a literal `false` after replacement), so the
// bundler drops the dead branch, import() included.
export const Route = createFileRoute('/dev/mailbox')({
  beforeLoad: () => {
    if (!import.meta.env.LASTSLOT_DEV_MAILBOX) throw notFound();
  },
  component: import.meta.env.LASTSLOT_DEV_MAILBOX
    ? lazyRouteComponent(() => import('../../features/dev/mailbox-page'))
    : () => null,
});
