CREATE TABLE `film_views_hourly` (
	`hour` integer NOT NULL,
	`film_id` integer NOT NULL,
	`views` integer NOT NULL,
	PRIMARY KEY(`hour`, `film_id`)
);
--> statement-breakpoint
CREATE INDEX `film_views_hourly_film` ON `film_views_hourly` (`film_id`,`hour`);--> statement-breakpoint
CREATE TABLE `listing_counts` (
	`scope` text PRIMARY KEY NOT NULL,
	`films` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `trending_views` (
	`span` text NOT NULL,
	`film_id` integer NOT NULL,
	`views` integer NOT NULL,
	`film_views` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`span`, `film_id`)
);
--> statement-breakpoint
CREATE INDEX `trending_views_rank` ON `trending_views` (`span`,`views`,`film_views`,`film_id`);--> statement-breakpoint
CREATE INDEX `trending_views_film` ON `trending_views` (`film_id`);--> statement-breakpoint
CREATE TABLE `trending_windows` (
	`name` text PRIMARY KEY NOT NULL,
	`hours` integer NOT NULL,
	`since_hour` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `films_category_year` ON `films` (`category_id`,`year`);--> statement-breakpoint
-- Hand-written below (docs/decisions/0607-trending-and-counts.md): the backfill from existing rows and
-- the triggers that keep these derived tables right whichever code writes films, links or views.
INSERT INTO film_views_hourly (hour, film_id, views) SELECT viewed_at / 3600000, film_id, count(*) FROM view_events GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO trending_windows (name, hours, since_hour) VALUES
  ('day', 24, unixepoch() / 3600 - 24), ('week', 168, unixepoch() / 3600 - 168), ('month', 720, unixepoch() / 3600 - 720);
--> statement-breakpoint
INSERT INTO trending_views (span, film_id, views, film_views)
  SELECT w.name, h.film_id, sum(h.views), (SELECT views FROM films WHERE id = h.film_id)
  FROM trending_windows w JOIN film_views_hourly h ON h.hour >= w.since_hour GROUP BY w.name, h.film_id;
--> statement-breakpoint
CREATE TRIGGER view_events_rollup AFTER INSERT ON view_events BEGIN
  INSERT INTO film_views_hourly (hour, film_id, views) VALUES (new.viewed_at / 3600000, new.film_id, 1)
    ON CONFLICT (hour, film_id) DO UPDATE SET views = views + 1;
  INSERT INTO trending_views (span, film_id, views, film_views)
    SELECT name, new.film_id, 1, (SELECT views FROM films WHERE id = new.film_id) FROM trending_windows WHERE new.viewed_at / 3600000 >= since_hour
    ON CONFLICT (span, film_id) DO UPDATE SET views = views + 1;
END;
--> statement-breakpoint
CREATE TRIGGER films_trending_views_after_update AFTER UPDATE OF views ON films BEGIN
  UPDATE trending_views SET film_views = new.views WHERE film_id = new.id;
END;
--> statement-breakpoint
INSERT INTO listing_counts (scope, films) SELECT 'category:' || category_id, count(*) FROM films GROUP BY category_id;
--> statement-breakpoint
INSERT INTO listing_counts (scope, films) SELECT 'genre:' || genre_id, count(*) FROM film_genres GROUP BY genre_id;
--> statement-breakpoint
INSERT INTO listing_counts (scope, films) SELECT 'country:' || country_id, count(*) FROM film_countries GROUP BY country_id;
--> statement-breakpoint
CREATE TRIGGER films_counts_after_insert AFTER INSERT ON films BEGIN
  INSERT INTO listing_counts (scope, films) VALUES ('category:' || new.category_id, 1)
    ON CONFLICT (scope) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER films_counts_after_delete AFTER DELETE ON films BEGIN
  UPDATE listing_counts SET films = films - 1 WHERE scope = 'category:' || old.category_id;
  DELETE FROM film_views_hourly WHERE film_id = old.id;
  DELETE FROM trending_views WHERE film_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER films_counts_after_update AFTER UPDATE OF category_id ON films WHEN old.category_id IS NOT new.category_id BEGIN
  UPDATE listing_counts SET films = films - 1 WHERE scope = 'category:' || old.category_id;
  INSERT INTO listing_counts (scope, films) VALUES ('category:' || new.category_id, 1)
    ON CONFLICT (scope) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER film_genres_counts_after_insert AFTER INSERT ON film_genres BEGIN
  INSERT INTO listing_counts (scope, films) VALUES ('genre:' || new.genre_id, 1)
    ON CONFLICT (scope) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER film_genres_counts_after_delete AFTER DELETE ON film_genres BEGIN
  UPDATE listing_counts SET films = films - 1 WHERE scope = 'genre:' || old.genre_id;
END;
--> statement-breakpoint
CREATE TRIGGER film_countries_counts_after_insert AFTER INSERT ON film_countries BEGIN
  INSERT INTO listing_counts (scope, films) VALUES ('country:' || new.country_id, 1)
    ON CONFLICT (scope) DO UPDATE SET films = films + 1;
END;
--> statement-breakpoint
CREATE TRIGGER film_countries_counts_after_delete AFTER DELETE ON film_countries BEGIN
  UPDATE listing_counts SET films = films - 1 WHERE scope = 'country:' || old.country_id;
END;
