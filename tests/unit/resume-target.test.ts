// "Xem tiếp" that knows the next episode (issue 40 §6): the rule the film page's button follows.
import { describe, expect, it } from 'vitest';
import { isWatched, resumeTarget } from '../../web/src/lib/resume-point';

const episodes = [1, 2, 3, 4, 5, 6];
const at = (episode: number, time: number, duration = 2700) => ({ episode, time, duration });

describe('resumeTarget', () => {
  it('nothing watched: "Xem phim"', () => {
    expect(resumeTarget(undefined, episodes, { ongoing: true })).toEqual({ kind: 'start' });
  });

  it('episode 5 stopped at 12:00: resume it there', () => {
    expect(resumeTarget(at(5, 720), episodes, { ongoing: true })).toEqual({ kind: 'resume', episode: 5, time: 720 });
  });

  it('episode 5 closed in its credits (43:00 of 45:00): episode 6 from 0, never "tập 5 từ 43:00"', () => {
    expect(isWatched(at(5, 2580))).toBe(true);
    expect(resumeTarget(at(5, 2580), episodes, { ongoing: true })).toEqual({ kind: 'next', episode: 6 });
  });

  it('past the learned credits counts even before 90 %', () => {
    expect(resumeTarget(at(5, 2300), episodes, { ongoing: true, creditsAt: 2280 })).toEqual({ kind: 'next', episode: 6 });
    expect(resumeTarget(at(5, 2300), episodes, { ongoing: true })).toEqual({ kind: 'resume', episode: 5, time: 2300 });
  });

  it('the newest episode watched: wait for the next of an ongoing series; a finished film starts over', () => {
    expect(resumeTarget(at(6, 2690), episodes, { ongoing: true })).toEqual({ kind: 'waiting', episode: 7 });
    expect(resumeTarget(at(6, 2690), episodes, { ongoing: false })).toEqual({ kind: 'start' });
  });

  it('an unknown duration is never "watched"', () => {
    expect(isWatched({ episode: 2, time: 3000, duration: 0 })).toBe(false);
  });
});
