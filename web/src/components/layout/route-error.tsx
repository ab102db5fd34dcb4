import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isNetworkError } from '../../lib/api-client';
import { OfflinePage } from './offline-page';

/** Default route error: the offline page when the network is gone, otherwise a retryable message. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryReset = useQueryErrorResetBoundary();
  useEffect(() => queryReset.reset(), [queryReset]);
  const retry = () => {
    reset();
    void router.invalidate();
  };
  if (isNetworkError(error) || !navigator.onLine) return <OfflinePage onRetry={retry} />;
  return (
    <section className="container status-page" role="alert">
      <h1>Đã xảy ra lỗi</h1>
      <p className="muted">Error: {error instanceof Error ? error.message : String(error)}</p>
      <button type="button" className="btn btn-primary" onClick={retry}>
        Thử lại
      </button>
    </section>
  );
}
