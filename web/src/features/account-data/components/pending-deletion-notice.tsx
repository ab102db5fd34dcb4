import { useQuery } from '@tanstack/react-query';
import { Link, useRouterState } from '@tanstack/react-router';
import { useSession } from '../../../lib/session';
import { ACCOUNT_DATA_TEXTS } from '../../../../../worker/schemas/account-data';
import { deletionStatusQuery } from '../deletion-status';

/** After signing in during the grace period, every page says so until the member restores or erases (issue 39 §1). */
export function PendingDeletionNotice() {
  const session = useSession();
  const onItsPage = useRouterState({ select: (s) => s.location.pathname === '/xoa-tai-khoan' || s.location.pathname === '/account' });
  const status = useQuery({ ...deletionStatusQuery(session?.id ?? ''), enabled: !!session });
  if (!session || onItsPage || !status.data?.deletion) return null;
  return (
    <div className="offline-banner" role="status" data-testid="pending-deletion">
      {ACCOUNT_DATA_TEXTS.deletionPendingTitle}.{' '}
      <Link to="/xoa-tai-khoan" className="link-button">
        {ACCOUNT_DATA_TEXTS.restore} hoặc {ACCOUNT_DATA_TEXTS.eraseNow.toLowerCase()}
      </Link>
    </div>
  );
}
