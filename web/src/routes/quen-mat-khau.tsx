import { createFileRoute, redirect } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../features/auth/components/forgot-password-page';

export const Route = createFileRoute('/quen-mat-khau')({
  // Signed in already: the password is changed on /account.
  beforeLoad: ({ context }) => {
    if (context.auth) throw redirect({ to: '/account', replace: true });
  },
  component: ForgotPasswordPage,
});
