// What the crawler keeps beside a film (issue 40 §1–2), read from the real source responses in ../shared/source-samples/.
import { describe, expect, it } from 'vitest';
import { mapDetail, tmdbVotes, youtubeId } from '../../worker/services/crawler/film-mapper';
import { parseDetail } from '../../worker/services/crawler/source-shapes';
import { cleanNames, isPlaceholderName, personSlug } from '../../worker/services/people/names';
import { haveSourceSamples, sample } from '../helpers/source-samples';

const detailWith = (movie: Record<string, unknown>) =>
  mapDetail(parseDetail({ status: true, movie: { name: 'Phim', slug: 'phim', ...movie }, episodes: [] }), { origin: 'https://ophim1.com' });

describe('people from a source', () => {
  it('drops placeholders and repeats, keeps real names in order (any script)', () => {
    for (const name of ['', ' ', 'Đang cập nhật', 'ĐANG CẬP NHẬT...', 'Updating', 'N/A', 'n/a', 'Unknown', 'Không rõ', '-', '…'])
      expect(isPlaceholderName(name), name).toBe(true);
    expect(cleanNames(['Trấn Thành', 'Đang cập nhật', 'Tran Thanh', '章若楠', ' Lomon '])).toEqual(['Trấn Thành', '章若楠', 'Lomon']);
    expect(personSlug('Trấn Thành')).toBe('tran-thanh');
    expect(personSlug('章若楠')).toBe('章若楠');
  });

  it('a film whose source says ["Đang cập nhật"] or [""] names no director', () => {
    const film = detailWith({ actor: ['Trấn Thành', 'Updating'], director: ['Đang cập nhật', ''] });
    expect(film.director).toBe('');
    expect(film.actors).toBe('Trấn Thành');
  });

  it.runIf(haveSourceSamples)('reads the real KKPhim detail: trailer id, TMDB votes, no director from "Đang cập nhật"', () => {
    const film = mapDetail(parseDetail(sample('kkphim-legacy-detail-ngoi-truong-xac-song.json')), { origin: 'https://phimapi.com' });
    expect(film.trailerId).toBe('IN5TD4VRcSM');
    expect(film.tmdbVoteCount).toBe(4010);
    expect(film.tmdbVoteAverage).toBeCloseTo(8.287);
    expect(film.director).toBe('');
    expect(film.actors?.split(', ')).toContain('Lomon');
    expect(film.chieurap).toBe(false);
  });

  it.runIf(haveSourceSamples)('reads the real OPhim details: no trailer, actor [""] is no one, few TMDB votes kept as they are', () => {
    const legacy = mapDetail(parseDetail(sample('ophim-legacy-detail-that-nghiep-chuyen-sinh-1-part-1.json')), {
      origin: 'https://ophim1.com',
    });
    expect([legacy.trailerId, legacy.actors, legacy.director, legacy.showtimes, legacy.notify]).toEqual(['', '', '', '', '']);
    const v1 = mapDetail(parseDetail(sample('ophim-v1-detail-anh-cung-co-ngay-nay.episodes-trimmed.json')), {
      origin: 'https://ophim1.com',
    });
    expect(v1.tmdbVoteCount).toBe(5);
    expect(v1.actors).toBe('Chen Xingxu, 章若楠, Chen Xiaoyun');
  });
});

describe('trailer, schedule, notice and "chiếu rạp"', () => {
  it('keeps a YouTube video id from any YouTube link form, nothing from other hosts', () => {
    expect(youtubeId('https://www.youtube.com/watch?v=IN5TD4VRcSM')).toBe('IN5TD4VRcSM');
    expect(youtubeId('https://youtu.be/IN5TD4VRcSM?t=3')).toBe('IN5TD4VRcSM');
    expect(youtubeId('https://www.youtube.com/embed/IN5TD4VRcSM')).toBe('IN5TD4VRcSM');
    expect(youtubeId('IN5TD4VRcSM')).toBe('IN5TD4VRcSM');
    expect(youtubeId('https://evil.example/watch?v=IN5TD4VRcSM')).toBe('');
    expect(youtubeId('javascript:alert(1)')).toBe('');
    expect(youtubeId('https://www.youtube.com/watch?v=short')).toBe('');
  });

  it('turns a source HTML schedule and notice into plain text: tags out, scripts out, entities decoded', () => {
    const film = detailWith({
      showtimes: '<b>21h</b> tối hàng ngày<script>alert(1)</script>',
      notify: 'Tuần này &lt;b&gt;hoãn&lt;/b&gt; chiếu <img src=x onerror=alert(1)>',
      chieurap: 'on',
    });
    expect(film.showtimes).toBe('21h tối hàng ngày');
    expect(film.notify).toBe('Tuần này hoãn chiếu');
    expect(film.chieurap).toBe(true);
  });

  it('reads TMDB votes only when they are numbers in range', () => {
    expect(tmdbVotes({ vote_average: 8.287, vote_count: 4010 })).toEqual({ average: 8.287, count: 4010 });
    expect(tmdbVotes({ vote_average: '7.5', vote_count: '25' })).toEqual({ average: 7.5, count: 25 });
    expect(tmdbVotes({ vote_average: 42, vote_count: -1 })).toEqual({ average: null, count: null });
    expect(tmdbVotes(null)).toEqual({ average: null, count: null });
  });
});
