import { createFileRoute } from '@tanstack/react-router';
import { AuthRedirectPage } from '../features/auth/auth-redirect-page';
import { emailLinkSearch } from '../features/auth/search-params';

export const Route = createFileRoute('/auth-redirect')({
  // Rendered in the browser: the link may carry its token after #, which only the browser sees.
  ssr: false,
  validateSearch: emailLinkSearch,
  component: AuthRedirectPage,
});
