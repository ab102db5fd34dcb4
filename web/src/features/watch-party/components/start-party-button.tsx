import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { WATCH_TEXTS } from '../../../../../party/watch-messages';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';

/**
 * "Xem chung" on the watch page, for signed-in members: creates a party for this episode and server (the
 * member is its host), then opens its page, where the link is shown with its copy button.
 */
export function StartPartyButton({ slug, episode, server }: { slug: string; episode: number; server: string | undefined }) {
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (!session) return null;
  const start = async () => {
    setBusy(true);
    try {
      // The party's API client loads on the tap: the watch page does not carry it for a button few press.
      const { createParty } = await import('../api/party-api');
      const party = await createParty(slug, episode, server);
      await navigate({ to: '/xem-chung/$partyId', params: { partyId: party.party.id } });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Không tạo được phòng xem chung, vui lòng thử lại.');
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn btn-sm btn-primary" onClick={() => void start()} disabled={busy}>
      {WATCH_TEXTS.button}
    </button>
  );
}
