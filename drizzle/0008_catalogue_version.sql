CREATE TABLE `catalogue_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Custom: the one row, and the triggers that raise the version on every change to what a catalogue page shows
-- (films but not their view/like counters, episodes, genre and country links): every writer, present or future,
-- makes the public caches' old entries unreachable (docs/decisions/0900-edge-cache.md).
INSERT INTO `catalogue_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_films_insert` AFTER INSERT ON `films` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_films_delete` AFTER DELETE ON `films` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_films_update` AFTER UPDATE OF `slug`, `title`, `name_english`, `poster_url`, `thumb_url`, `status_text`, `status`, `language`, `episode_count_text`, `duration`, `year`, `quality`, `director`, `actors`, `genre_names`, `country_names`, `description`, `category_id`, `vip_only`, `title_folded`, `search_text`, `updated_at` ON `films` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_episodes_insert` AFTER INSERT ON `episodes` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_episodes_update` AFTER UPDATE ON `episodes` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_episodes_delete` AFTER DELETE ON `episodes` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_film_genres_insert` AFTER INSERT ON `film_genres` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_film_genres_delete` AFTER DELETE ON `film_genres` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_film_countries_insert` AFTER INSERT ON `film_countries` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_film_countries_delete` AFTER DELETE ON `film_countries` BEGIN UPDATE catalogue_version SET version = version + 1 WHERE id = 1; END;
