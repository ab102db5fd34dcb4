// The footer's information pages: the default text of worker/schemas/pages.ts until an admin saves one,
// kept in the settings table under 'page:{slug}' as JSON { title, body }; every save is audited.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import { DEFAULT_SITE_PAGES, SITE_PAGE_SLUGS, type SitePage, type SitePageSlug, type UpdateSitePageInput } from '../../schemas/pages';
import { type Actor, auditInsert } from '../admin/audit';

const keyOf = (slug: SitePageSlug) => `page:${slug}`;

function toPage(slug: SitePageSlug, row: { value: string; updatedAt: number } | undefined): SitePage {
  const fallback = DEFAULT_SITE_PAGES[slug];
  if (!row) return { slug, ...fallback, updatedAt: null };
  try {
    const saved = JSON.parse(row.value) as Partial<UpdateSitePageInput>;
    return {
      slug,
      title: typeof saved.title === 'string' && saved.title ? saved.title : fallback.title,
      body: typeof saved.body === 'string' && saved.body ? saved.body : fallback.body,
      updatedAt: row.updatedAt,
    };
  } catch {
    return { slug, ...fallback, updatedAt: null };
  }
}

export async function readSitePage(db: Db, slug: SitePageSlug): Promise<SitePage> {
  const [row] = await db
    .select({ value: settings.value, updatedAt: settings.updatedAt })
    .from(settings)
    .where(eq(settings.key, keyOf(slug)));
  return toPage(slug, row);
}

export async function listSitePages(db: Db): Promise<SitePage[]> {
  const rows = await db
    .select()
    .from(settings)
    .where(
      inArray(
        settings.key,
        SITE_PAGE_SLUGS.map((s) => keyOf(s)),
      ),
    );
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return SITE_PAGE_SLUGS.map((slug) => toPage(slug, byKey.get(keyOf(slug))));
}

/** PUT /api/admin/pages/{slug}: saves the title and text (an empty text shows the default again). */
export async function updateSitePage(db: Db, actor: Actor, slug: SitePageSlug, input: UpdateSitePageInput, now: number): Promise<SitePage> {
  const before = await readSitePage(db, slug);
  const value = JSON.stringify({ title: input.title, body: input.body });
  await db.batch([
    db
      .insert(settings)
      .values({ key: keyOf(slug), value, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value`, updatedAt: now } }),
    auditInsert(
      db,
      actor,
      {
        action: 'page.update',
        target: slug,
        before: { title: before.title, body: before.body },
        after: { title: input.title, body: input.body || DEFAULT_SITE_PAGES[slug].body },
      },
      now,
    ),
  ]);
  return readSitePage(db, slug);
}
