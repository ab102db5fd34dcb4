// The first page is rendered on the host (worker/ssr/render.ts): without JavaScript the home and a film
// page show their content; with it, the page hydrates without a console error and stays a client-side app.
import { describe, expect, test } from 'vitest';
import { setupBrowser } from './helpers/browser';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();

/**
 * A free film of the catalogue, by the API the page itself reads: a VIP-only one (other files' tests make
 * some) would answer a visitor with the VIP alert and go back instead of showing the page.
 */
async function aFilm(base: string): Promise<{ slug: string; title: string }> {
  const res = await fetch(`${base}/api/product/product-phimle`);
  const body = (await res.json()) as { data: { slug: string; title: string; VIP1: number }[] };
  return body.data.find((f) => f.VIP1 === 0)!;
}

describe('server-rendered first page', () => {
  test('home and a film page show their titles with JavaScript disabled', async () => {
    const film = await aFilm(b.baseURL());
    const { page, context } = await b.newPage({ javaScriptEnabled: false });
    await page.goto('/');
    const home = JSON.stringify(await (await fetch(`${b.baseURL()}/api/product/product-home`)).json());
    const titles = await page.locator('.film-card-title').allInnerTexts();
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(home).toContain(JSON.stringify(title));
    await page.goto(`/${film.slug}`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain(film.title);
    await page.goto('/phim-le');
    expect(await page.locator('.film-grid .film-card').count()).toBe(25);
    await context.close();
  });

  test('hydrates without console errors, then navigates client-side', async () => {
    const film = await aFilm(b.baseURL());
    const { page, context, errors } = await b.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    const documents: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents.push(r.url());
    });
    await page.goto(`/${film.slug}`);
    // The server's HTML is on screen before the app starts (web/vite-plugins.ts startAfterPaint): a click
    // before hydration does nothing, so click until React has attached its handlers and the tab switches.
    const info = page.getByRole('tab', { name: /thông tin/i });
    await expect
      .poll(async () => {
        await info.click();
        return info.getAttribute('aria-selected');
      })
      .toBe('true');
    await page.getByRole('link', { name: 'Trang chủ', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.locator('.film-card').count()).toBeGreaterThan(0);
    // One document: home came from the client-side router, not a page load.
    expect(documents).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  test('home hydrates without console errors and its tabs work', async () => {
    const { page, context, errors } = await b.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.goto('/');
    await page.locator('.swiper-initialized').waitFor();
    const panelTitles = () => page.locator('[role="tabpanel"]:not([hidden]) .film-card-title').allInnerTexts();
    const series = await panelTitles();
    await page.getByRole('tab', { name: 'Phim lẻ mới cập nhật' }).click();
    await expect.poll(panelTitles).not.toEqual(series);
    expect(errors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  test("the film and watch pages start without zod's classic API (no schema is built as they start)", async () => {
    const film = await aFilm(b.baseURL());
    // zod's classic schemas (a ZodObject …) are built when their module is evaluated: ~30 ms of the film page's
    // start-up when its comment section took a text from a module of request schemas. Its chunk names the class.
    const classic = /[`'"]ZodObject[`'"]/;
    for (const path of [`/${film.slug}`, `/xem-phim/${film.slug}/tap-1`]) {
      const { page, context, errors } = await b.newPage();
      const scripts: Promise<{ url: string; body: string }>[] = [];
      page.on('response', (r) => {
        if (/\/assets\/.+\.js$/.test(new URL(r.url()).pathname)) scripts.push(r.text().then((body) => ({ url: r.url(), body })));
      });
      await page.goto(path);
      // Hydrated: the comment section's live connection is the last of the page's start (its chunk loads then).
      await page.waitForLoadState('networkidle');
      const loaded = await Promise.all(scripts);
      expect(loaded.length).toBeGreaterThan(5);
      expect(loaded.filter((s) => classic.test(s.body)).map((s) => s.url)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  test('a rendered page carries the rules its markup uses: without the app it looks as it does with the whole sheet', async () => {
    const film = await aFilm(b.baseURL());
    for (const [path, options] of [
      ['/', PHONE],
      ['/phim-bo', PHONE],
      [`/${film.slug}`, PHONE],
      [`/xem-phim/${film.slug}/tap-1`, PHONE],
      [`/${film.slug}`, {}],
    ] as const) {
      // The page as the host sent it, none of its scripts run (the test's own evaluation needs JavaScript on).
      const { context } = await b.newPage(options);
      const page = await context.newPage();
      await page.route(/\.js$/, (route) => route.abort());
      await page.goto(path);
      const part = page.locator('style[data-href][data-critical]');
      expect(await part.count(), path).toBe(1);
      const href = (await part.getAttribute('data-href'))!;
      const whole = await (await fetch(`${b.baseURL()}${href}`)).text();
      expect((await part.innerText()).length, path).toBeLessThan(whole.length / 2);
      // Every element's computed style (and its ::before and ::after where they exist), then the whole sheet added
      // after the part, as the app links it: nothing changes.
      const snapshot = () =>
        page.evaluate(() => {
          const computed = (el: Element, pseudo?: string) => {
            const style = getComputedStyle(el, pseudo);
            if (pseudo && style.content === 'none') return '';
            return Array.from(style, (name) => `${name}:${style.getPropertyValue(name)}`).join(';');
          };
          return [...document.body.querySelectorAll('*')].map((el) => ({
            el: `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`,
            style: [computed(el), computed(el, '::before'), computed(el, '::after')].join(';'),
          }));
        });
      const before = await snapshot();
      await page.addStyleTag({ content: whole });
      const changed = (await snapshot())
        .map(({ el, style }, i) => {
          const was = new Set(before[i]!.style.split(';'));
          return { el, now: style.split(';').filter((p) => !was.has(p)) };
        })
        .filter(({ now }) => now.length > 0)
        .map(({ el, now }) => `${el}: ${now.join('; ')}`);
      expect(changed, path).toEqual([]);
      await context.close();
    }
  });

  test('the whole stylesheet comes once, as the app starts, takes the place of the page\'s part, and never comes again through "Xem phim"', async () => {
    const film = await aFilm(b.baseURL());
    const { page, context, errors } = await b.newPage(PHONE);
    const stylesheets: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('.css')) stylesheets.push(new URL(r.url()).pathname);
    });
    const html = await (await fetch(`${b.baseURL()}/${film.slug}`)).text();
    const inline = /<style data-href="([^"]+)" data-critical>/.exec(html)?.[1];
    expect(inline).toMatch(/^\/assets\/.+\.css$/);
    await page.goto(`/${film.slug}`);
    await page.waitForLoadState('networkidle');
    await tap(page, page.getByRole('button', { name: /Xem phim|Xem tiếp/ }));
    await page.waitForURL(/\/xem-phim\//);
    await page.getByRole('heading', { name: 'Danh sách tập' }).waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    expect(stylesheets.filter((sheet) => sheet === inline)).toHaveLength(1);
    // Applied once: the whole sheet the app linked (Vite's preload helper finds that link and adds no other); the
    // page's part went once it was in.
    const applied = await page.evaluate(
      (href) =>
        [...document.styleSheets].filter(
          (sheet) => sheet.href?.endsWith(href!) || (sheet.ownerNode as Element | null)?.getAttribute('data-href') === href,
        ).length,
      inline,
    );
    expect(applied).toBe(1);
    expect(await page.locator('style[data-href]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
