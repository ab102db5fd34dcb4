// A film's episodes read as one JSON array built by the database (services/catalogue/detail.ts episodeList): every
// episode of that film and no other's, in id order, fields as the rows hold them, grouped by server.
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { episodes } from '../../worker/db/schema';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedCatalogue } from '../helpers/catalogue-fixture';

let t: TestApp;
let series: { id: number; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  await seedCatalogue(t.deps.db);
  // Two servers of 40 episodes, written server by server, with names that need escaping in JSON.
  series = await upsertFilm(t.deps.db, {
    title: 'Bộ Dài Tập',
    categoryId: 24,
    episodes: ['Vietsub #1', 'Thuyết Minh "TM" #2'].flatMap((serverName, s) =>
      Array.from({ length: 40 }, (_, i) => ({
        serverName,
        episode: 40 - i,
        name: `Tập ${40 - i} \\ "đặc biệt" </script>`,
        m3u8Url: `https://cdn.example.com/${s}/${40 - i}.m3u8`,
        embedUrl: i % 2 ? '' : `https://player.example.com/${s}/${40 - i}`,
      })),
    ),
  });
});

describe("a film page's episodes", () => {
  it('are all of that film, as its rows hold them, grouped by server in first-seen order, by number within one', async () => {
    const res = await t.request(`/api/product/${series.slug}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as FilmDetailResponse;
    const rows = await t.deps.db.select().from(episodes).where(eq(episodes.filmId, series.id)).orderBy(asc(episodes.id));
    expect(rows).toHaveLength(80);
    const asLink = (r: (typeof rows)[number]) => ({
      id: r.id,
      episode: r.episode,
      name: r.name,
      server_name: r.serverName,
      linkfilm: r.m3u8Url || r.embedUrl,
      link_m3u8: r.m3u8Url,
      link_embed: r.embedUrl,
    });
    // Each server's episodes by number; linkfilms is the first server's.
    const byServer = (server: string) =>
      rows
        .filter((r) => r.serverName === server)
        .sort((a, b) => a.episode - b.episode)
        .map(asLink);
    expect(body.datafilm.servers).toEqual([
      { server_name: 'Vietsub #1', linkfilms: byServer('Vietsub #1') },
      { server_name: 'Thuyết Minh "TM" #2', linkfilms: byServer('Thuyết Minh "TM" #2') },
    ]);
    expect(body.datafilm.linkfilms).toEqual(byServer('Vietsub #1'));
    expect(body.datafilm.servers.map((s) => [s.server_name, s.linkfilms.length])).toEqual([
      ['Vietsub #1', 40],
      ['Thuyết Minh "TM" #2', 40],
    ]);
    expect(body.datafilm.servers[0]!.linkfilms.map((l) => l.episode)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("a film with no episodes has none, and never another film's", async () => {
    const bare = await upsertFilm(t.deps.db, { title: 'Phim Chưa Có Tập', categoryId: 25 });
    const body = (await (await t.request(`/api/product/${bare.slug}`)).json()) as FilmDetailResponse;
    expect(body.datafilm.linkfilms).toEqual([]);
    expect(body.datafilm.servers).toEqual([]);
  });
});
