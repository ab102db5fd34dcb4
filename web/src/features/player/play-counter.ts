// The play the Top 10 counts (issue 40 §3, docs/decisions/1071): once this device has really played PLAY_SECONDS of a
// film (time moving forward in small steps while playing; a seek, a jump or time spent paused adds nothing), the
// watch page sends one POST /api/product/play with the device's random id. The server counts it once per device,
// film and day whatever the web sends; the web sends it once per film and page session.
import { PLAY_SECONDS } from '../../../../worker/schemas/discovery-texts';
import { api, unwrap } from '../../lib/api-client';
import { deviceId } from '../../lib/device-id';

/** A timeupdate step longer than this is a seek (or a stalled tab catching up), not playback. */
const MAX_STEP = 2;

/** Seconds of real playback of one film, and whether the play was reported. */
export class PlayCounter {
  private last: number | null = null;
  private played = 0;
  private reported = false;

  constructor(
    private readonly onReached: () => void,
    private readonly threshold = PLAY_SECONDS,
  ) {}

  /** A time update of the playing video (the player's onTime). */
  tick(time: number): void {
    const step = this.last === null ? 0 : time - this.last;
    this.last = time;
    if (step > 0 && step <= MAX_STEP) this.played += step;
    if (!this.reported && this.played >= this.threshold) {
      this.reported = true;
      this.onReached();
    }
  }

  /** A seek, a new episode or a new server: the next update starts a new run (no jump counted). */
  restart(): void {
    this.last = null;
  }

  get seconds(): number {
    return this.played;
  }
}

/** One counter per film for the page session: episodes of one film add up; each film reports once. */
const counters = new Map<string, PlayCounter>();

export function playCounterFor(slug: string): PlayCounter {
  let counter = counters.get(slug);
  if (!counter) {
    counter = new PlayCounter(() => {
      const seconds = Math.floor(counter!.seconds);
      void unwrap(api.api.product.play.$post({ json: { slug, device: deviceId(), seconds } })).catch(() => undefined);
    });
    counters.set(slug, counter);
  }
  return counter;
}
