import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../features/auth/components/reset-password-page';

/** The link's token, whatever it is: the API says whether it is forged, used or expired. */
const validateToken = (raw: Record<string, unknown>): { token?: string } =>
  typeof raw.token === 'string' && raw.token.length <= 512 ? { token: raw.token } : {};

export const Route = createFileRoute('/dat-lai-mat-khau')({
  validateSearch: validateToken,
  component: function ResetPasswordRoute() {
    const { token } = Route.useSearch();
    return <ResetPasswordPage token={token ?? ''} />;
  },
});
