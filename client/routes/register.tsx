import { createFileRoute } from '@tanstack/react-router';
import { requireGuest } from '../features/auth/guards';
import { RegisterPage, registerSearch } from '../features/auth/register-page';

export const Route = createFileRoute('/register')({
  validateSearch: registerSearch,
  beforeLoad: ({ context }) => requireGuest(context.trpcUtils),
  component: RegisterPage,
});
