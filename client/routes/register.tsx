import { createFileRoute } from '@tanstack/react-router';
import { requireGuest } from '../features/auth/guards';
import { RegisterPage } from '../features/auth/register-page';
import { registerSearch } from '../features/auth/search-params';

export const Route = createFileRoute('/register')({
  validateSearch: registerSearch,
  beforeLoad: ({ context }) => requireGuest(context.trpcUtils),
  component: RegisterPage,
});
