import { createFileRoute } from '@tanstack/react-router';
import { requireGuest } from '../features/auth/guards';
import { LoginPage } from '../features/auth/login-page';
import { loginSearch } from '../features/auth/search-params';

export const Route = createFileRoute('/login')({
  validateSearch: loginSearch,
  beforeLoad: ({ context }) => requireGuest(context.trpcUtils, { delayAuthenticated: true }),
  component: LoginPage,
});
