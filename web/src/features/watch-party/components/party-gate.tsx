import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { cleanName, isPartyId, WATCH_NAME_MAX, WATCH_NAME_MIN, WATCH_TEXTS } from '../../../../../party/watch-messages';
import { useSession } from '../../../lib/session';
import { type GuestIdentity, joinParty, loadGuest, type PartyTokenResponse, saveGuest } from '../api/party-api';
import { type PartyRefusal, refusalOf } from '../hooks/use-watch-room';

export interface Joined {
  first: PartyTokenResponse;
  guest: GuestIdentity | null;
}

/**
 * Before the room: a member joins with their session at once; a visitor first chooses a display name
 * ("Tên hiển thị", 1–32 characters once trimmed). The API's refusals (no such party, full, over) show here.
 */
export function PartyGate({ partyId, children }: { partyId: string; children: (joined: Joined) => ReactNode }) {
  const session = useSession();
  const [joined, setJoined] = useState<Joined | null>(null);
  const [refusal, setRefusal] = useState<PartyRefusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState(() => (typeof window === 'undefined' ? '' : (loadGuest()?.name ?? '')));
  const [nameError, setNameError] = useState<string | null>(null);

  const join = async (guest: GuestIdentity | null) => {
    setBusy(true);
    setRefusal(null);
    try {
      const first = await joinParty(partyId, guest);
      const identity = guest ? { name: first.name, guest: first.guest ?? guest.guest } : null;
      if (identity) saveGuest(identity);
      setJoined({ first, guest: identity });
    } catch (error) {
      const r = refusalOf(error);
      // The API's own check of the name (the same rule): shown at the field.
      if ((error as { status?: number })?.status === 400 && guest) setNameError(WATCH_TEXTS.nameRequired);
      else setRefusal(r);
    } finally {
      setBusy(false);
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a member joins once per party (and again after signing in).
  useEffect(() => {
    if (!isPartyId(partyId)) {
      setRefusal({ kind: 'notFound', message: WATCH_TEXTS.notFound });
      return;
    }
    if (session && !joined) {
      void join(null);
      return;
    }
    // A visitor: the API checks the party before the name, so a missing, ended or full party says so before
    // anyone types a name (an open one answers that a name is needed: the form).
    let cancelled = false;
    joinParty(partyId, { name: '' }).then(
      () => undefined,
      (error: unknown) => {
        if (!cancelled && (error as { status?: number })?.status !== 400) setRefusal(refusalOf(error));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [partyId, session?.id]);

  if (joined) return <>{children(joined)}</>;
  if (refusal) return <PartyRefused refusal={refusal} />;
  if (session)
    return (
      <div className="container watch-state">
        <p className="loading-text" role="status">
          Đang vào phòng xem chung…
        </p>
      </div>
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const clean = cleanName(name);
    const length = [...clean].length;
    if (length < WATCH_NAME_MIN || length > WATCH_NAME_MAX) {
      setNameError(WATCH_TEXTS.nameRequired);
      return;
    }
    setNameError(null);
    void join({ name: clean, guest: loadGuest()?.guest });
  };
  return (
    <div className="container party-join">
      <h1 className="section-title">Xem chung</h1>
      <p>Bạn được mời xem phim cùng bạn bè. Hãy chọn tên để mọi người trong phòng nhận ra bạn.</p>
      <form className="party-join-form" onSubmit={submit} noValidate>
        <div className="form-field">
          <label htmlFor="party-name">Tên hiển thị</label>
          <input
            id="party-name"
            name="name"
            autoComplete="nickname"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'party-name-error' : 'party-name-hint'}
          />
          {nameError ? (
            <p id="party-name-error" className="form-error" role="alert">
              {nameError}
            </p>
          ) : (
            <p id="party-name-hint" className="muted">
              Từ {WATCH_NAME_MIN} đến {WATCH_NAME_MAX} ký tự.
            </p>
          )}
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Vào xem chung
        </button>
      </form>
      <p className="muted">
        Đã có tài khoản?{' '}
        <Link to="/dang-nhap" search={{ redirect: `/xem-chung/${partyId}` } as never}>
          Đăng nhập
        </Link>
      </p>
    </div>
  );
}

/** Every way the party can say no, in Vietnamese; an ended party offers its episode alone. */
export function PartyRefused({ refusal }: { refusal: PartyRefusal }) {
  const text =
    refusal.kind === 'notFound'
      ? WATCH_TEXTS.notFound
      : refusal.kind === 'full'
        ? WATCH_TEXTS.full
        : refusal.kind === 'ended'
          ? WATCH_TEXTS.ended
          : refusal.kind === 'removed'
            ? WATCH_TEXTS.removed
            : refusal.kind === 'replaced'
              ? WATCH_TEXTS.replaced
              : refusal.kind === 'badToken'
                ? WATCH_TEXTS.badToken
                : refusal.message;
  const ep = refusal.episode;
  return (
    <div className="container watch-state party-refused">
      <p role="alert">{text}</p>
      {refusal.kind === 'ended' && ep && (
        <p>
          <Link
            className="btn btn-primary"
            to="/xem-phim/$slug/$episode"
            params={{ slug: ep.slug, episode: `tap-${ep.episode}` }}
            search={{ server: ep.server } as never}
          >
            Xem tập {ep.episode} một mình
          </Link>
        </p>
      )}
      <p>
        <Link to="/">Về trang chủ</Link>
      </p>
    </div>
  );
}
