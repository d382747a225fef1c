import { createFileRoute } from '@tanstack/react-router';
import { requireGuest } from '../features/auth/guards';
import { LoginPage, loginSearch } from '../features/auth/login-page';

export const Route = createFileRoute('/login')({
  validateSearch: loginSearch,
  beforeLoad: ({ context }) => requireGuest(context.trpcUtils, { delayAuthenticated: true }),
  component: LoginPage,
});
