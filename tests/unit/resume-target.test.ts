// "Xem tiếp" that knows the next episode (issue 40 §6): the rule the film page's button follows.
import { describe, expect, it } from 'vitest';
import { isWatched, resumeTarget, watchTarget } from '../../web/src/lib/resume-point';

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

// The episode the film page's button opens: the page and the stream's start path (which gets it ready before the page
// has hydrated) both ask watchTarget, so they cannot disagree.
describe('watchTarget', () => {
  const film = {
    slug: 'phim',
    ongoing: true,
    servers: [
      { server_name: 'Trống', linkfilms: [] },
      { server_name: 'Vietsub #1', linkfilms: [1, 2, 3].map((episode) => ({ episode })) },
      { server_name: 'Thuyết minh', linkfilms: [1, 2, 3, 4].map((episode) => ({ episode })) },
    ],
  };

  it('nothing watched: the first episode of the first server that has links, from 0', () => {
    expect(watchTarget(film, undefined)).toEqual({
      next: { kind: 'start' },
      target: { slug: 'phim', episode: 1, server: 'Vietsub #1', position: 0 },
    });
  });

  it('stopped part-way: that episode where it stopped', () => {
    expect(watchTarget(film, at(2, 600)).target).toEqual({ slug: 'phim', episode: 2, server: 'Vietsub #1', position: 600 });
  });

  it('past the credits viewers taught (before 90 %): the next episode from 0', () => {
    expect(watchTarget(film, { ...at(2, 2400), credits: 2350 }).target).toEqual({
      slug: 'phim',
      episode: 3,
      server: 'Vietsub #1',
      position: 0,
    });
  });

  it('the last episode out watched, the series going on: that episode again while waiting', () => {
    const { next, target } = watchTarget(film, at(4, 2690));
    expect(next).toEqual({ kind: 'waiting', episode: 5 });
    expect(target).toMatchObject({ episode: 4, position: 0 });
  });

  it('no server with links: nothing to open', () => {
    expect(watchTarget({ ...film, servers: [film.servers[0]!] }, undefined).target).toBeUndefined();
  });
});
