import { createFileRoute, redirect } from '@tanstack/react-router';
import { RegisterPage } from '../features/auth/components/register-page';

export const Route = createFileRoute('/dang-ky')({
  beforeLoad: ({ context }) => {
    if (context.auth) throw redirect({ to: '/', replace: true });
  },
  component: RegisterPage,
});
