import { createFileRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '../features/auth/components/login-page';
import { validateRedirect } from '../features/auth/redirect-target';

export const Route = createFileRoute('/dang-nhap')({
  validateSearch: validateRedirect,
  // Already signed in: nothing to do here, unless the member is asked to sign in again (reauth).
  beforeLoad: ({ context, search }) => {
    if (context.auth && !search.reauth) throw redirect({ href: search.redirect ?? '/', replace: true });
  },
  component: function LoginRoute() {
    const { redirect: redirectTo } = Route.useSearch();
    return <LoginPage redirectTo={redirectTo} />;
  },
});
