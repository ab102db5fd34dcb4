import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailPage } from '../features/auth/components/verify-email-page';

const validateToken = (raw: Record<string, unknown>): { token?: string } =>
  typeof raw.token === 'string' && raw.token.length <= 512 ? { token: raw.token } : {};

export const Route = createFileRoute('/xac-minh-email')({
  validateSearch: validateToken,
  component: function VerifyEmailRoute() {
    const { token } = Route.useSearch();
    return <VerifyEmailPage token={token ?? ''} />;
  },
});
