-- Custom: per-film versions (docs/decisions/1020-per-film-cache-versions.md). The triggers of 0008 raised the one
-- catalogue version on every change, so a new episode of one film made every cached page of every film unreachable.
-- These raise it the same way and also say what the change concerns: `scoped` = the raise named a film, whose slug
-- gets the new version in film_versions; `lists` = the change can move a list (a film added, deleted, renamed, a
-- card's field, an episode added or removed, a genre or country link). A raise of `version` by anything else (a
-- source going down or back, a comment shown or hidden: services that raise it directly) names no film, and the
-- last trigger makes it an `epoch`: every page's key moves, as before.
UPDATE `catalogue_version` SET `lists` = `version`, `epoch` = `version`, `scoped` = `version` WHERE `id` = 1;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_films_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_films_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_films_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_episodes_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_episodes_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_episodes_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_film_genres_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_film_genres_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_film_countries_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalogue_version_film_countries_delete`;
--> statement-breakpoint
CREATE TRIGGER `film_versions_films_insert` AFTER INSERT ON `films` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT NEW.slug, version FROM catalogue_version WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_films_delete` AFTER DELETE ON `films` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT OLD.slug, version FROM catalogue_version WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_films_update_listed` AFTER UPDATE OF `slug`, `title`, `name_english`, `poster_url`, `thumb_url`, `status_text`, `status`, `language`, `episode_count_text`, `duration`, `year`, `quality`, `genre_names`, `country_names`, `description`, `category_id`, `vip_only`, `title_folded`, `search_text`, `updated_at` ON `films` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT OLD.slug, version FROM catalogue_version WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT NEW.slug, version FROM catalogue_version WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_films_update_page` AFTER UPDATE OF `director`, `actors` ON `films` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT NEW.slug, version FROM catalogue_version WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_episodes_insert` AFTER INSERT ON `episodes` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = NEW.film_id AND c.id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_episodes_update` AFTER UPDATE ON `episodes` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = OLD.film_id AND c.id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = NEW.film_id AND c.id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_episodes_delete` AFTER DELETE ON `episodes` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = OLD.film_id AND c.id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_film_genres_insert` AFTER INSERT ON `film_genres` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = NEW.film_id AND c.id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_film_genres_delete` AFTER DELETE ON `film_genres` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = OLD.film_id AND c.id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_film_countries_insert` AFTER INSERT ON `film_countries` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = NEW.film_id AND c.id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `film_versions_film_countries_delete` AFTER DELETE ON `film_countries` BEGIN UPDATE catalogue_version SET version = version + 1, scoped = version + 1, lists = version + 1 WHERE id = 1; INSERT OR REPLACE INTO film_versions (slug, version) SELECT f.slug, c.version FROM films f, catalogue_version c WHERE f.id = OLD.film_id AND c.id = 1; END;
--> statement-breakpoint
CREATE TRIGGER `catalogue_version_epoch` AFTER UPDATE OF `version` ON `catalogue_version` WHEN NEW.`scoped` <> NEW.`version` BEGIN UPDATE catalogue_version SET epoch = NEW.version WHERE id = 1; END;
