import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { emailLinkSearch } from '../features/auth/search-params';

export const Route = createFileRoute('/reset-password')({
  // Rendered in the browser: the link may carry its token after #, which only the browser sees.
  ssr: false,
  validateSearch: emailLinkSearch,
  component: ResetPasswordPage,
});
