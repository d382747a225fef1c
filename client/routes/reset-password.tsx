import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { emailLinkSearch } from '../features/auth/search-params';

export const Route = createFileRoute('/reset-password')({
  validateSearch: emailLinkSearch,
  component: ResetPasswordPage,
});
