import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { CONSENT_TEXTS } from '../../../../../worker/schemas/privacy-texts';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { acceptConsent, consentQuery } from '../api/privacy-api';

/**
 * A new privacy policy version asks a signed-in member once (docs/decisions/1050): a dialog on the next visit;
 * "Tôi đồng ý" records it and the question stops. "Để sau" closes it for this visit only (asked again next time,
 * since nothing was accepted).
 */
export function ConsentPrompt() {
  const session = useSession();
  const status = useQuery({ ...consentQuery(String(session?.id ?? '')), enabled: !!session });
  const queryClient = useQueryClient();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  const open = !!session && status.data?.needed === true && !dismissed;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  if (!session || !status.data?.needed) return null;
  const version = status.data.currentVersion;
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={`${id}-title`} onClose={() => setDismissed(true)} data-testid="consent-prompt">
      <div className="dialog-form">
        <h2 id={`${id}-title`}>{CONSENT_TEXTS.promptTitle}</h2>
        <p>{CONSENT_TEXTS.promptBody}</p>
        <p>
          <Link to="/bao-mat" onClick={() => setDismissed(true)}>
            {CONSENT_TEXTS.policyLink}
          </Link>{' '}
          (phiên bản {version})
        </p>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              acceptConsent(version).then(
                (next) => {
                  queryClient.setQueryData(consentQuery(String(session.id)).queryKey, next);
                  toast.success(CONSENT_TEXTS.recorded);
                  setBusy(false);
                },
                (err: Error) => {
                  setBusy(false);
                  toast.error(err.message);
                  void status.refetch();
                },
              );
            }}
          >
            {CONSENT_TEXTS.promptAccept}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setDismissed(true)}>
            {CONSENT_TEXTS.promptLater}
          </button>
        </div>
      </div>
    </dialog>
  );
}
