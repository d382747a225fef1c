import { createFileRoute } from '@tanstack/react-router';
import { AuthRedirectPage, authRedirectSearch } from '../features/auth/auth-redirect-page';

export const Route = createFileRoute('/auth-redirect')({
  validateSearch: authRedirectSearch,
  component: AuthRedirectPage,
});
