import { useCallback, useEffect, useRef, useState } from 'react';
import { timelinePosition } from '../../../../../party/watch-messages';
import { correction, EchoFilter } from '../sync-engine';
import type { WatchRoom } from './use-watch-room';

/** How often the screen is compared with the party's timeline. */
const TICK_MS = 100;
/** A media event this soon after a touch, click or key on the page is the person's; otherwise the player's own. */
const GESTURE_MS = 1500;
/** Buffering this long while the party plays is a stall the room hears of. */
const STALL_AFTER_MS = 500;
/** A local command waits this long for the room's answer before the screen follows the room again. */
const HOLD_MS = 2000;
/** Scrubbing sends the position it rests on. */
const SEEK_SETTLE_MS = 120;
/** The speeds a person picks in the player's menu (the sync's own nudges are never these). */
const MENU_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2];

export interface PartySync {
  /** Autoplay was refused (a phone): one tap on "Nhấn để xem cùng" joins playback in step. */
  needsTap: boolean;
  tapToJoin: () => void;
  /** A refusal this screen caused (a viewer's seek), from the room, shown briefly. */
  localRefusal: { message: string; key: number } | null;
}

/**
 * Keeps this screen's <video> on the room's timeline with the pure engine (sync-engine.ts): applies play at
 * the room's start time, pause, seek and rate; corrects drift by the rate (±5 %) or, past a second, by a seek
 * at most every few seconds; ignores the events it caused itself; sends the person's own play/pause/seek/
 * speed when they may control (a viewer's attempt goes to the room too, which refuses it: the screen snaps
 * back); reports ready and stalls so the room can wait.
 */
export function usePartySync(room: WatchRoom, getMedia: () => HTMLVideoElement | null, canControl: boolean): PartySync {
  const { latest, clock, send, onSnapshot, refused } = room;
  const [needsTap, setNeedsTap] = useState(false);
  const needsTapRef = useRef(false);
  const control = useRef(canControl);
  control.current = canControl;
  const [localRefusal, setLocalRefusal] = useState<PartySync['localRefusal']>(null);
  const internals = useRef({
    echo: new EchoFilter(),
    lastSeekAt: Number.NEGATIVE_INFINITY,
    seekStartedAt: 0,
    seekLatency: 0.15,
    lastInput: Number.NEGATIVE_INFINITY,
    hold: null as { seq: number; until: number } | null,
    reportedSeq: -1,
    stalledSince: null as number | null,
    stalledSeq: -1,
    playTimer: undefined as number | undefined,
    playTimerSeq: -1,
    seekTimer: undefined as number | undefined,
    /** How long this screen takes from play() to frames moving (s): a scheduled start begins that much early. */
    playLatency: 0.05,
    playCalledAt: 0,
  });

  const playNow = useCallback((v: HTMLVideoElement) => {
    const s = internals.current;
    s.echo.expect('play', 0, performance.now());
    s.playCalledAt = performance.now();
    v.play().then(
      () => {
        if (needsTapRef.current) {
          needsTapRef.current = false;
          setNeedsTap(false);
        }
      },
      (error: unknown) => {
        if ((error as { name?: string })?.name === 'NotAllowedError' && !needsTapRef.current) {
          needsTapRef.current = true;
          setNeedsTap(true);
        }
      },
    );
  }, []);

  const tick = useCallback(() => {
    const s = internals.current;
    const snap = latest.current.snapshot;
    const v = getMedia();
    if (!snap || !v || v.readyState < 1 || !clock.ready) return;
    const t = snap.timeline;
    const localNow = performance.now();
    if (s.hold && (localNow > s.hold.until || t.seq > s.hold.seq)) s.hold = null;
    if (s.hold) return;
    const roomNow = clock.roomNow(localNow);
    const seek = (to: number) => {
      const target = Math.max(0, Number.isFinite(v.duration) ? Math.min(to, v.duration - 0.1) : to);
      s.echo.expect('seek', target, localNow);
      s.seekStartedAt = localNow;
      s.lastSeekAt = localNow;
      v.currentTime = target;
    };
    const setRate = (r: number) => {
      if (Math.abs(v.playbackRate - r) < 0.0005) return;
      s.echo.expect('rate', r, localNow);
      v.playbackRate = r;
    };
    const c = correction(
      t,
      roomNow,
      { currentTime: v.currentTime, paused: v.paused, seeking: v.seeking },
      localNow,
      s.lastSeekAt,
      s.seekLatency,
    );
    if (c.kind === 'paused' || c.kind === 'scheduled') {
      if (!v.paused) {
        s.echo.expect('pause', 0, localNow);
        v.pause();
      }
      if (c.seek && !v.seeking) seek(c.position);
      setRate(t.rate);
      if (c.kind === 'scheduled' && s.playTimerSeq !== t.seq) {
        // Everyone starts at the room's start time: a timer to the millisecond, not the next tick.
        window.clearTimeout(s.playTimer);
        s.playTimerSeq = t.seq;
        s.playTimer = window.setTimeout(
          () => {
            const now = latest.current.snapshot?.timeline;
            if (now?.seq === t.seq && now.playing && !needsTapRef.current) playNow(v);
          },
          Math.max(0, c.startInMs - s.playLatency * 1000),
        );
      }
    } else {
      if (v.paused) {
        if (!needsTapRef.current) {
          // Joining a party that plays (a late joiner, an ended stall): at the party's position, then play.
          if (Math.abs(c.drift) > 0.25 && !v.seeking) seek(timelinePosition(t, roomNow) + s.seekLatency * t.rate);
          playNow(v);
        }
      } else if (c.seekTo !== undefined) seek(c.seekTo);
      setRate(c.rate);
    }
    // Loaded at the party's position for this timeline: the room may start (or stop waiting).
    const atPosition = c.kind !== 'playing' || Math.abs(c.drift) < 1;
    if (s.reportedSeq !== t.seq && !v.seeking && v.readyState >= 3 && atPosition) {
      s.reportedSeq = t.seq;
      send({ type: 'ready', seq: t.seq, rtt: Math.round(clock.rtt) });
    }
    // Buffering while the party plays: tell the room (it waits for us at most 10 s).
    const buffering = t.playing && roomNow >= t.at && !v.paused && !v.seeking && v.readyState < 3;
    if (!buffering) s.stalledSince = null;
    else if (s.stalledSince === null) s.stalledSince = localNow;
    else if (localNow - s.stalledSince > STALL_AFTER_MS && s.stalledSeq !== t.seq) {
      s.stalledSeq = t.seq;
      send({ type: 'stalled', seq: t.seq });
    }
  }, [latest, clock, send, getMedia, playNow]);

  // The loop, and at once on every timeline the room sends.
  useEffect(() => {
    const timer = window.setInterval(tick, TICK_MS);
    const off = onSnapshot(tick);
    return () => {
      window.clearInterval(timer);
      off();
    };
  }, [onSnapshot, tick]);

  // A refusal from the room: shown, and the screen follows the room again.
  useEffect(() => {
    if (!refused) return;
    internals.current.hold = null;
    setLocalRefusal(refused);
    tick();
  }, [refused, tick]);

  // The person's own actions on the player (touch, click, keys), told apart from the engine's and the player's.
  useEffect(() => {
    const s = internals.current;
    const onInput = () => {
      s.lastInput = performance.now();
    };
    document.addEventListener('pointerdown', onInput, true);
    document.addEventListener('keydown', onInput, true);
    let bound: HTMLVideoElement | null = null;
    const person = () => performance.now() - s.lastInput < GESTURE_MS;
    const command = (build: (seq: number) => Parameters<typeof send>[0]) => {
      const t = latest.current.snapshot?.timeline;
      if (!t) return;
      send(build(t.seq));
      // A controller's change stands until the room answers; a viewer's is refused and snapped back.
      if (control.current) s.hold = { seq: t.seq, until: performance.now() + HOLD_MS };
      else window.setTimeout(tick, 0);
    };
    const onPlay = () => {
      const v = bound;
      if (!v || s.echo.isEcho('play', 0, performance.now()) || !person()) return;
      const t = latest.current.snapshot?.timeline;
      if (t && !t.playing) {
        // Everyone starts together at the room's start time: this screen too, not at once.
        s.echo.expect('pause', 0, performance.now());
        v.pause();
        command((seq) => ({ type: 'play', seq }));
      }
    };
    const onPlaying = () => {
      if (!s.playCalledAt) return;
      const took = (performance.now() - s.playCalledAt) / 1000;
      s.playCalledAt = 0;
      if (took < 1) s.playLatency = Math.min(0.3, Math.max(0, s.playLatency * 0.6 + took * 0.4));
    };
    const onPause = () => {
      const v = bound;
      if (!v || s.echo.isEcho('pause', 0, performance.now()) || !person()) return;
      const t = latest.current.snapshot?.timeline;
      if (t?.playing) command((seq) => ({ type: 'pause', seq }));
    };
    const onSeeking = () => {
      const v = bound;
      if (!v) return;
      if (s.echo.isEcho('seek', v.currentTime, performance.now()) || !person()) return;
      // Scrubbing: hold the screen where the person is and send where they rest.
      const t = latest.current.snapshot?.timeline;
      if (t && control.current) s.hold = { seq: t.seq, until: performance.now() + HOLD_MS };
      window.clearTimeout(s.seekTimer);
      s.seekTimer = window.setTimeout(
        () => command((seq) => ({ type: 'seek', seq, position: Math.max(0, v.currentTime) })),
        SEEK_SETTLE_MS,
      );
    };
    const onSeeked = () => {
      // Loaded at the new position: tell the room now, not at the next tick.
      window.setTimeout(tick, 0);
      if (!s.seekStartedAt) return;
      const took = (performance.now() - s.seekStartedAt) / 1000;
      s.seekStartedAt = 0;
      s.seekLatency = Math.min(1, Math.max(0.03, s.seekLatency * 0.7 + took * 0.3));
    };
    const onRate = () => {
      const v = bound;
      if (!v || s.echo.isEcho('rate', v.playbackRate, performance.now()) || !person()) return;
      const t = latest.current.snapshot?.timeline;
      if (t && MENU_RATES.includes(v.playbackRate) && v.playbackRate !== t.rate) {
        const rate = v.playbackRate;
        command((seq) => ({ type: 'rate', seq, rate }));
      }
    };
    const events: [string, () => void][] = [
      ['play', onPlay],
      ['pause', onPause],
      ['seeking', onSeeking],
      ['seeked', onSeeked],
      ['playing', onPlaying],
      ['canplay', tick],
      ['ratechange', onRate],
    ];
    const bind = () => {
      const v = getMedia();
      if (v === bound) return;
      if (bound) for (const [type, fn] of events) bound.removeEventListener(type, fn);
      bound = v;
      s.reportedSeq = -1;
      if (v) for (const [type, fn] of events) v.addEventListener(type, fn);
    };
    bind();
    const binder = window.setInterval(bind, TICK_MS);
    return () => {
      window.clearInterval(binder);
      window.clearTimeout(s.seekTimer);
      window.clearTimeout(s.playTimer);
      document.removeEventListener('pointerdown', onInput, true);
      document.removeEventListener('keydown', onInput, true);
      if (bound) for (const [type, fn] of events) bound.removeEventListener(type, fn);
    };
  }, [latest, send, getMedia, tick]);

  // For the browser tests and the bench: this screen's distance from the party's timeline, read in one go.
  useEffect(() => {
    const probe = {
      drift: () => {
        const snap = latest.current.snapshot;
        const v = getMedia();
        if (!snap || !v || !clock.ready) return null;
        return {
          drift: v.currentTime - timelinePosition(snap.timeline, clock.roomNow(performance.now())),
          currentTime: v.currentTime,
          paused: v.paused,
          seq: snap.timeline.seq,
          episode: snap.timeline.episode,
          rtt: clock.rtt,
        };
      },
    };
    (window as Window & { __phimvietParty?: typeof probe }).__phimvietParty = probe;
    return () => {
      delete (window as Window & { __phimvietParty?: typeof probe }).__phimvietParty;
    };
  }, [latest, clock, getMedia]);

  const tapToJoin = useCallback(() => {
    const v = getMedia();
    const snap = latest.current.snapshot;
    if (!v) return;
    needsTapRef.current = false;
    setNeedsTap(false);
    if (snap?.timeline.playing && clock.ready) {
      const s = internals.current;
      const at = timelinePosition(snap.timeline, clock.roomNow(performance.now())) + s.seekLatency * snap.timeline.rate;
      s.echo.expect('seek', at, performance.now());
      s.seekStartedAt = performance.now();
      s.lastSeekAt = performance.now();
      v.currentTime = at;
    }
    playNow(v);
  }, [getMedia, latest, clock, playNow]);

  return { needsTap, tapToJoin, localRefusal };
}
