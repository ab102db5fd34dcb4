import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from 'react';
import {
  AUTO_SKIPPED_TEXT,
  type PublicSegment,
  REWATCH_INTRO_LABEL,
  SKIP_BUTTON_LEAD,
  SKIP_INTRO_LABEL,
} from '../../../../../worker/schemas/segment-texts';
import type { SkipTracker } from '../skip-runs';

export interface SkipIntroHandle {
  /** Every time update of the playing video (the watch page's onTime). */
  tick: (time: number) => void;
  /** The key S: skips the intro if it is showing now. Answers whether it did. */
  skip: () => boolean;
}

/** How long "Đã bỏ qua giới thiệu · Xem lại" stays after an automatic skip. */
const NOTICE_MS = 5000;

const inIntro = (t: number, seg: PublicSegment) => t >= seg.start && t < seg.end - SKIP_BUTTON_LEAD;

/**
 * "Bỏ qua giới thiệu" over the picture from the learned intro's start until 3 s before its end (issue 40 §7); with
 * "Tự động bỏ qua" on, the intro is skipped by itself once per episode and "Đã bỏ qua giới thiệu · Xem lại" offers
 * the way back. It also feeds the device's skip runs (skip-runs.ts) with the video's seeks.
 */
export const SkipIntro = forwardRef<
  SkipIntroHandle,
  { intro: PublicSegment | null; media: () => HTMLVideoElement | null; tracker: SkipTracker; autoSkip: boolean }
>(function SkipIntro({ intro, media, tracker, autoSkip }, ref) {
  const [showing, setShowing] = useState(false);
  const [notice, setNotice] = useState(false);
  const bound = useRef<HTMLVideoElement | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const autoDone = useRef(false);
  const latest = useRef({ intro, tracker, autoSkip });
  latest.current = { intro, tracker, autoSkip };

  // The video's seeks go to the tracker (bound at the first time update, once the <video> plays).
  const seeking = useRef((e: Event) => latest.current.tracker.seek((e.target as HTMLVideoElement).currentTime));
  useEffect(() => {
    const onSeeking = seeking.current;
    return () => {
      window.clearTimeout(timer.current);
      bound.current?.removeEventListener('seeking', onSeeking);
    };
  }, []);

  const jump = useCallback(
    (to: number, kind: 'button' | 'auto' | 'rewind') => {
      const video = media();
      if (!video) return;
      latest.current.tracker.expect(kind);
      video.currentTime = to;
      setShowing(false);
    },
    [media],
  );

  const evaluate = useCallback(
    (t: number) => {
      const { intro: seg, autoSkip: auto } = latest.current;
      window.clearTimeout(timer.current);
      if (!seg) {
        setShowing(false);
        return;
      }
      if (inIntro(t, seg)) {
        if (auto && !autoDone.current) {
          autoDone.current = true;
          jump(seg.end, 'auto');
          setNotice(true);
          return;
        }
        setShowing(true);
        return;
      }
      setShowing(false);
      // The intro starts within a second: shown right then, not at the next time update (up to 250 ms late).
      const video = media();
      if (video && !video.paused && t < seg.start && seg.start - t <= 1) {
        const rate = video.playbackRate || 1;
        timer.current = window.setTimeout(() => evaluate(video.currentTime), ((seg.start - t) * 1000) / rate + 5);
      }
    },
    [jump, media],
  );

  useImperativeHandle(
    ref,
    () => ({
      tick(time: number) {
        const video = media();
        if (video && bound.current !== video) {
          bound.current?.removeEventListener('seeking', seeking.current);
          video.addEventListener('seeking', seeking.current);
          bound.current = video;
        }
        latest.current.tracker.time(time);
        evaluate(time);
      },
      skip() {
        const seg = latest.current.intro;
        const video = media();
        if (!seg || !video || !inIntro(video.currentTime, seg)) return false;
        jump(seg.end, 'button');
        return true;
      },
    }),
    [evaluate, jump, media],
  );

  useEffect(() => {
    if (!notice) return;
    const t = window.setTimeout(() => setNotice(false), NOTICE_MS);
    return () => window.clearTimeout(t);
  }, [notice]);

  if (notice && intro)
    return (
      <p className="skip-intro skip-intro-notice" role="status" data-testid="auto-skipped">
        {AUTO_SKIPPED_TEXT} ·{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setNotice(false);
            jump(intro.start, 'rewind');
          }}
        >
          {REWATCH_INTRO_LABEL}
        </button>
      </p>
    );
  if (!showing || !intro) return null;
  return (
    <button type="button" className="btn skip-intro" data-testid="skip-intro" onClick={() => jump(intro.end, 'button')}>
      {SKIP_INTRO_LABEL}
    </button>
  );
});
