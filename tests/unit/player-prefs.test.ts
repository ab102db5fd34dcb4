import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPlayerPrefs, savePlayerPrefs } from '../../web/src/features/player/player-prefs';
import { fakeStorage } from '../helpers/fake-storage';

describe('player prefs (speed, volume, quality on this device)', () => {
  beforeEach(() => {
    (globalThis as { localStorage?: Storage }).localStorage = fakeStorage();
  });
  afterEach(() => {
    delete (globalThis as { localStorage?: Storage }).localStorage;
  });

  it('defaults when nothing is stored', () => {
    expect(loadPlayerPrefs()).toEqual({ rate: 1, volume: 1, muted: false, quality: undefined, autoSkip: false });
  });

  it('keeps each change and merges the next', () => {
    savePlayerPrefs({ rate: 1.5 });
    savePlayerPrefs({ volume: 0.4, muted: true });
    savePlayerPrefs({ quality: 360 });
    expect(loadPlayerPrefs()).toEqual({ rate: 1.5, volume: 0.4, muted: true, quality: 360, autoSkip: false });
    savePlayerPrefs({ quality: undefined });
    expect(loadPlayerPrefs().quality).toBeUndefined();
  });

  it('ignores what it did not write: other speeds, volumes out of range, bad JSON', () => {
    localStorage.setItem('phimviet:player', JSON.stringify({ rate: 16, volume: 3, muted: 'yes', quality: -1 }));
    expect(loadPlayerPrefs()).toEqual({ rate: 1, volume: 1, muted: false, quality: undefined, autoSkip: false });
    localStorage.setItem('phimviet:player', '{not json');
    expect(loadPlayerPrefs()).toEqual({ rate: 1, volume: 1, muted: false, autoSkip: false });
  });

  it('a storage that throws (private mode) is not an error', () => {
    (globalThis as { localStorage?: Storage }).localStorage = {
      ...fakeStorage(),
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => savePlayerPrefs({ rate: 2 })).not.toThrow();
    expect(loadPlayerPrefs().rate).toBe(1);
  });
});
