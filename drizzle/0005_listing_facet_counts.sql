CREATE TABLE `listing_facet_counts` (
	`facets` text PRIMARY KEY NOT NULL,
	`films` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `films_year_updated` ON `films` (`year`,`updated_at`);--> statement-breakpoint
CREATE INDEX `films_year_views` ON `films` (`year`,`views`);--> statement-breakpoint
CREATE INDEX `films_year_created` ON `films` (`year`,`created_at`);--> statement-breakpoint
CREATE INDEX `films_title_views` ON `films` (`title_folded`,`views`);--> statement-breakpoint
-- Hand-written below (docs/decisions/0608-filtered-listings-and-search.md): the backfill and the triggers
-- that keep listing_facet_counts right whichever code writes films or their links. A film counts once in
-- every key its facets make: no genre or one of its genres × no country or one of its countries × no
-- category or its category × no year or its year. A cascading delete of links runs after the film row is
-- gone, so the film's BEFORE DELETE trigger removes every key of the film, and a link trigger that finds no
-- film does nothing.
INSERT INTO listing_facet_counts (facets, films)
  SELECT printf('g%s:k%s:c%s:y%s', g.v, k.v, CASE WHEN c.on_ = 1 THEN f.category_id END, CASE WHEN y.on_ = 1 THEN f.year END), count(*)
  FROM films f, (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y,
    (SELECT id AS film_id, NULL AS v FROM films UNION ALL SELECT film_id, genre_id FROM film_genres) g,
    (SELECT id AS film_id, NULL AS v FROM films UNION ALL SELECT film_id, country_id FROM film_countries) k
  WHERE g.film_id = f.id AND k.film_id = f.id AND (c.on_ = 0 OR f.category_id IS NOT NULL) AND (y.on_ = 0 OR f.year IS NOT NULL)
  GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER films_facets_after_insert AFTER INSERT ON films BEGIN
  INSERT INTO listing_facet_counts (facets, films) SELECT facets, 1 FROM (SELECT printf('g%s:k%s:c%s:y%s', g.v, k.v, CASE WHEN c.on_ = 1 THEN f.category_id END, CASE WHEN y.on_ = 1 THEN f.year END) AS facets FROM films f, (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT genre_id FROM film_genres WHERE film_id = new.id) g, (SELECT NULL AS v UNION ALL SELECT country_id FROM film_countries WHERE film_id = new.id) k WHERE f.id = new.id AND (c.on_ = 0 OR f.category_id IS NOT NULL) AND (y.on_ = 0 OR f.year IS NOT NULL)) WHERE true
    ON CONFLICT (facets) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER films_facets_before_delete BEFORE DELETE ON films BEGIN
  UPDATE listing_facet_counts SET films = films - 1 WHERE facets IN (SELECT printf('g%s:k%s:c%s:y%s', g.v, k.v, CASE WHEN c.on_ = 1 THEN f.category_id END, CASE WHEN y.on_ = 1 THEN f.year END) AS facets FROM films f, (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT genre_id FROM film_genres WHERE film_id = old.id) g, (SELECT NULL AS v UNION ALL SELECT country_id FROM film_countries WHERE film_id = old.id) k WHERE f.id = old.id AND (c.on_ = 0 OR f.category_id IS NOT NULL) AND (y.on_ = 0 OR f.year IS NOT NULL));
END;
--> statement-breakpoint
CREATE TRIGGER films_facets_after_update AFTER UPDATE OF category_id, year ON films
  WHEN old.category_id IS NOT new.category_id OR old.year IS NOT new.year BEGIN
  UPDATE listing_facet_counts SET films = films - 1 WHERE facets IN (SELECT printf('g%s:k%s:c%s:y%s', g.v, k.v, CASE WHEN c.on_ = 1 THEN old.category_id END, CASE WHEN y.on_ = 1 THEN old.year END) AS facets FROM (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT genre_id FROM film_genres WHERE film_id = old.id) g, (SELECT NULL AS v UNION ALL SELECT country_id FROM film_countries WHERE film_id = old.id) k WHERE (c.on_ = 0 OR old.category_id IS NOT NULL) AND (y.on_ = 0 OR old.year IS NOT NULL));
  INSERT INTO listing_facet_counts (facets, films) SELECT facets, 1 FROM (SELECT printf('g%s:k%s:c%s:y%s', g.v, k.v, CASE WHEN c.on_ = 1 THEN new.category_id END, CASE WHEN y.on_ = 1 THEN new.year END) AS facets FROM (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT genre_id FROM film_genres WHERE film_id = new.id) g, (SELECT NULL AS v UNION ALL SELECT country_id FROM film_countries WHERE film_id = new.id) k WHERE (c.on_ = 0 OR new.category_id IS NOT NULL) AND (y.on_ = 0 OR new.year IS NOT NULL)) WHERE true
    ON CONFLICT (facets) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER film_genres_facets_after_insert AFTER INSERT ON film_genres BEGIN
  INSERT INTO listing_facet_counts (facets, films) SELECT facets, 1 FROM (SELECT printf('g%s:k%s:c%s:y%s', new.genre_id, o.v, CASE WHEN c.on_ = 1 THEN f.category_id END, CASE WHEN y.on_ = 1 THEN f.year END) AS facets FROM films f, (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT country_id FROM film_countries WHERE film_id = new.film_id) o WHERE f.id = new.film_id AND (c.on_ = 0 OR f.category_id IS NOT NULL) AND (y.on_ = 0 OR f.year IS NOT NULL)) WHERE true
    ON CONFLICT (facets) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER film_genres_facets_after_delete AFTER DELETE ON film_genres BEGIN
  UPDATE listing_facet_counts SET films = films - 1 WHERE facets IN (SELECT printf('g%s:k%s:c%s:y%s', old.genre_id, o.v, CASE WHEN c.on_ = 1 THEN f.category_id END, CASE WHEN y.on_ = 1 THEN f.year END) AS facets FROM films f, (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT country_id FROM film_countries WHERE film_id = old.film_id) o WHERE f.id = old.film_id AND (c.on_ = 0 OR f.category_id IS NOT NULL) AND (y.on_ = 0 OR f.year IS NOT NULL));
END;
--> statement-breakpoint
CREATE TRIGGER film_countries_facets_after_insert AFTER INSERT ON film_countries BEGIN
  INSERT INTO listing_facet_counts (facets, films) SELECT facets, 1 FROM (SELECT printf('g%s:k%s:c%s:y%s', o.v, new.country_id, CASE WHEN c.on_ = 1 THEN f.category_id END, CASE WHEN y.on_ = 1 THEN f.year END) AS facets FROM films f, (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT genre_id FROM film_genres WHERE film_id = new.film_id) o WHERE f.id = new.film_id AND (c.on_ = 0 OR f.category_id IS NOT NULL) AND (y.on_ = 0 OR f.year IS NOT NULL)) WHERE true
    ON CONFLICT (facets) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER film_countries_facets_after_delete AFTER DELETE ON film_countries BEGIN
  UPDATE listing_facet_counts SET films = films - 1 WHERE facets IN (SELECT printf('g%s:k%s:c%s:y%s', o.v, old.country_id, CASE WHEN c.on_ = 1 THEN f.category_id END, CASE WHEN y.on_ = 1 THEN f.year END) AS facets FROM films f, (SELECT 0 AS on_ UNION ALL SELECT 1) c, (SELECT 0 AS on_ UNION ALL SELECT 1) y, (SELECT NULL AS v UNION ALL SELECT genre_id FROM film_genres WHERE film_id = old.film_id) o WHERE f.id = old.film_id AND (c.on_ = 0 OR f.category_id IS NOT NULL) AND (y.on_ = 0 OR f.year IS NOT NULL));
END;
