import { createFileRoute } from '@tanstack/react-router';
import { AuthRedirectPage } from '../features/auth/auth-redirect-page';
import { emailLinkSearch } from '../features/auth/search-params';

export const Route = createFileRoute('/auth-redirect')({
  validateSearch: emailLinkSearch,
  component: AuthRedirectPage,
});
