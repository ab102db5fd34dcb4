import { createFileRoute, redirect } from '@tanstack/react-router';
import { AccountPage } from '../features/auth/components/account-page';

export const Route = createFileRoute('/account')({
  beforeLoad: ({ context, location }) => {
    if (!context.auth) throw redirect({ to: '/dang-nhap', search: { redirect: location.href }, replace: true });
  },
  component: AccountPage,
});
