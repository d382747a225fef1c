import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage, resetPasswordSearch } from '../features/auth/reset-password-page';

export const Route = createFileRoute('/reset-password')({
  validateSearch: resetPasswordSearch,
  component: ResetPasswordPage,
});
