// Issue 25, section 3: axe-core over the main pages, on a phone and a desktop: no serious or critical violation.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { freeFilms } from './helpers/accounts';
import { seriousViolations } from './helpers/axe';
import { setupBrowser } from './helpers/browser';
import { PHONE } from './helpers/phone';

const b = setupBrowser();

/** A free film with episodes whose first episode is named (e.g. 'Full'), else the first free film. */
async function filmWithEpisodes(): Promise<{ slug: string; episode: number }> {
  const slugs = await freeFilms(b.baseURL(), 'product-phimle');
  let first: { slug: string; episode: number } | undefined;
  for (const slug of slugs.slice(0, 10)) {
    const detail = (await (await fetch(`${b.baseURL()}/api/product/${slug}`)).json()) as {
      datafilm: { servers: { linkfilms: { episode: number; name: string }[] }[] };
    };
    const ep = detail.datafilm.servers.flatMap((s) => s.linkfilms)[0];
    if (!ep) continue;
    first ??= { slug, episode: ep.episode };
    if (ep.name && !/^\d+$/.test(ep.name) && !/^Tập/.test(ep.name)) return { slug, episode: ep.episode };
  }
  if (!first) throw new Error('no free film with episodes in the demo catalogue');
  return first;
}

/** The main pages, each with what shows once it has loaded. */
function mainPages(film: { slug: string; episode: number }): { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] {
  return [
    { name: 'home', path: '/', ready: (p) => p.locator('.hot-slide a').first().waitFor() },
    { name: 'listing', path: '/phim-bo', ready: (p) => p.locator('.film-card').first().waitFor() },
    { name: 'film', path: `/${film.slug}`, ready: (p) => p.locator('.episode-link').first().waitFor() },
    { name: 'watch', path: `/xem-phim/${film.slug}/tap-${film.episode}`, ready: (p) => p.getByTestId('video').waitFor() },
    { name: 'search', path: '/tim-kiem/dat%20rung', ready: (p) => p.locator('.film-card-title').first().waitFor() },
    { name: 'login', path: '/dang-nhap', ready: (p) => p.getByLabel('Email').waitFor() },
  ];
}

describe('accessibility (axe-core: WCAG 2.1 A/AA and best practices)', () => {
  for (const [device, options] of [
    ['phone 390x844', PHONE],
    ['desktop', {}],
  ] as const) {
    test(`the main pages have no serious or critical violation (${device})`, async () => {
      const film = await filmWithEpisodes();
      const { page, context, errors } = await b.newPage({ ...options, bypassCSP: true });
      const found: Record<string, unknown> = {};
      for (const { name, path, ready } of mainPages(film)) {
        await page.goto(path);
        await ready(page);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[`${name} ${path}`] = violations;
      }
      // What a voice-control user says is what they see: the Tủ phim button and an episode link answer to
      // their visible words, in both states of the button (its name goes on with the film's title).
      await page.goto(`/${film.slug}`);
      const title = await page.getByRole('heading', { level: 1 }).innerText();
      const add = page.getByRole('button', { name: `Thêm vào Tủ phim (${title})`, exact: true });
      expect(await add.getAttribute('aria-pressed')).toBe('false');
      const firstEpisode = page.locator('.episode-link').first();
      const shown = (await firstEpisode.evaluate((a) => a.firstChild?.textContent ?? '')).trim();
      const escaped = shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(await page.getByRole('link', { name: new RegExp(`^${escaped} \\(`) }).count()).toBeGreaterThan(0);
      await add.click();
      const added = page.getByRole('button', { name: `Đã trong Tủ phim (${title})`, exact: true });
      await expect.poll(() => added.getAttribute('aria-pressed')).toBe('true');
      // Its toast has come in (axe reads colours as shown, not halfway through the entrance's fade).
      const toast = page.locator('[data-sonner-toast]').first();
      await expect.poll(() => toast.evaluate((el) => getComputedStyle(el).opacity), { timeout: 5000 }).toBe('1');
      const afterAdding = await seriousViolations(page);
      if (afterAdding.length > 0) found[`film in Tủ phim /${film.slug}`] = afterAdding;

      expect(found).toEqual({});
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
