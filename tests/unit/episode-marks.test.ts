// Episode lists' ✓ and bars and the "Xem tiếp" card's offer (issue 40 §6): the rules of lib/resume-point.ts, and the
// device's history keeping every episode it played (lib/watch-history.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { continueOffer, episodeMarks, episodeMarkText } from '../../web/src/lib/resume-point';
import { fakeStorage } from '../helpers/fake-storage';

const rec = (episode: number, time: number, updatedAt: number, duration = 2700) => ({ episode, time, duration, updatedAt });

describe('episodeMarks', () => {
  it('✓ past 90 % (or the credits), a bar with the share part-way, nothing in the first seconds or without a duration', () => {
    const marks = episodeMarks([rec(1, 2600, 1), rec(2, 1080, 2), rec(3, 4, 3), rec(4, 600, 4, 0), rec(5, 2300, 5)], 2280);
    expect([...marks]).toEqual([
      [1, { watched: true }],
      [2, { watched: false, share: 0.4 }],
      [5, { watched: true }],
    ]);
    expect(episodeMarkText(marks.get(1)!)).toBe('Đã xem');
    expect(episodeMarkText(marks.get(2)!)).toBe('Đã xem 40 %');
    expect(episodeMarks([rec(5, 2300, 5)]).get(5)).toEqual({ watched: false, share: 2300 / 2700 });
  });

  it('of two records of one episode (this device, the account), the newer wins', () => {
    expect(episodeMarks([rec(5, 2650, 10), rec(5, 300, 20)]).get(5)).toEqual({ watched: false, share: 300 / 2700 });
    expect(episodeMarks([rec(5, 2650, 30), rec(5, 300, 20)]).get(5)).toEqual({ watched: true });
  });
});

describe('continueOffer ("Xem tiếp" card)', () => {
  const film = { episodes: [1, 2, 3, 4, 5, 6], ongoing: true, releasedAt: 1_000 };
  it('the next episode once the last was watched; "Tập mới" only for an episode that came after the last watch', () => {
    expect(continueOffer(rec(5, 2650, 2_000), film)).toEqual({ target: { kind: 'next', episode: 6 }, newEpisode: false });
    expect(continueOffer(rec(5, 2650, 500), film)).toEqual({ target: { kind: 'next', episode: 6 }, newEpisode: true });
    expect(continueOffer(rec(5, 600, 500), film).target).toEqual({ kind: 'resume', episode: 5, time: 600 });
    expect(continueOffer(rec(6, 2650, 2_000), film)).toEqual({ target: { kind: 'waiting', episode: 7 }, newEpisode: false });
    expect(continueOffer(rec(6, 2650, 2_000), { ...film, releasedAt: null }).newEpisode).toBe(false);
  });
});

describe("the device's history keeps each episode it played", () => {
  beforeEach(() => {
    Object.assign(globalThis, { localStorage: fakeStorage(), sessionStorage: fakeStorage() });
  });
  afterEach(() => {
    delete (globalThis as { localStorage?: Storage }).localStorage;
    delete (globalThis as { sessionStorage?: Storage }).sessionStorage;
  });

  it('every episode played stays marked; opening one at 0 s keeps an earlier play of it', async () => {
    const { getWatchEntry, saveWatchEntry } = await import('../../web/src/lib/watch-history');
    const film = { slug: 'phim', title: 'Phim', poster: '', server: 'Vietsub #1' };
    saveWatchEntry({ ...film, episode: 1, time: 19, duration: 20 });
    saveWatchEntry({ ...film, episode: 2, time: 8, duration: 20 });
    saveWatchEntry({ ...film, episode: 1, time: 0, duration: 0 });
    const entry = getWatchEntry('phim')!;
    expect(entry.episode).toBe(1);
    const records = Object.entries(entry.episodes!).map(([e, [time, duration, updatedAt]]) => ({
      episode: Number(e),
      time,
      duration,
      updatedAt,
    }));
    expect([...episodeMarks(records)]).toEqual([
      [1, { watched: true }],
      [2, { watched: false, share: 0.4 }],
    ]);
  });
});
