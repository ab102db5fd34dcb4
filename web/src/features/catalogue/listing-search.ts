import * as z from 'zod/mini';
import { FIRST_YEAR } from '../../../../worker/schemas/taxonomy';

/**
 * Query string of a listing page (the filter bar "in effect" plus the page). Every field falls back
 * to "absent" when the URL holds something invalid, so a bad link shows the unfiltered list.
 * zod/mini keeps this (it runs in the entry chunk) a few kB.
 */
const maybe = <T extends z.core.$ZodType>(schema: T) => z.catch(z.optional(schema), undefined);

export const listingSearchSchema = z.object({
  page: maybe(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000))),
  sort: maybe(z.enum(['createdAt', 'views'])),
  category: maybe(z.string().check(z.minLength(1), z.maxLength(40))),
  country: maybe(z.string().check(z.minLength(1), z.maxLength(40))),
  type: maybe(z.coerce.number().check(z.int(), z.minimum(24), z.maximum(27))),
  year: maybe(z.coerce.number().check(z.int(), z.minimum(1900), z.maximum(2100))),
  keyword: maybe(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
});

export type ListingSearch = z.infer<typeof listingSearchSchema>;

export function validateListingSearch(raw: Record<string, unknown>): ListingSearch {
  const parsed = listingSearchSchema.parse(raw);
  // Drop absent keys so URLs stay clean (?page=2 rather than ?page=2&sort=undefined).
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as ListingSearch;
}

/** The filter bar's years: the current year down to FIRST_YEAR (catalogue.ts releaseYears(), without pulling zod into this chunk). */
export function filterYears(now = new Date()): number[] {
  const years: number[] = [];
  for (let y = now.getFullYear(); y >= FIRST_YEAR; y--) years.push(y);
  return years;
}
