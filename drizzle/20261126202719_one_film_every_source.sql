CREATE TABLE `crawl_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer,
	`source_id` integer,
	`level` text NOT NULL,
	`message` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `crawl_log_source_at` ON `crawl_log` (`source_id`,`at`);--> statement-breakpoint
CREATE INDEX `crawl_log_run` ON `crawl_log` (`run_id`);--> statement-breakpoint
CREATE INDEX `crawl_log_at` ON `crawl_log` (`at`);--> statement-breakpoint
CREATE TABLE `film_aliases` (
	`slug` text PRIMARY KEY NOT NULL,
	`film_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `film_aliases_film` ON `film_aliases` (`film_id`);--> statement-breakpoint
CREATE TABLE `film_sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_id` integer NOT NULL,
	`source_id` integer,
	`source_key` text NOT NULL,
	`source_slug` text DEFAULT '' NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`checksum` text,
	`tmdb_type` text,
	`tmdb_id` text,
	`tmdb_season` integer,
	`imdb_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `film_sources_source_key_unique` ON `film_sources` (`source_key`);--> statement-breakpoint
CREATE INDEX `film_sources_film` ON `film_sources` (`film_id`);--> statement-breakpoint
CREATE INDEX `film_sources_source` ON `film_sources` (`source_id`);--> statement-breakpoint
CREATE TABLE `merge_suggestions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_a` integer NOT NULL,
	`film_b` integer NOT NULL,
	`reason` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_by` integer,
	FOREIGN KEY (`film_a`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`film_b`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `merge_suggestions_pair` ON `merge_suggestions` (`film_a`,`film_b`);--> statement-breakpoint
CREATE INDEX `merge_suggestions_status` ON `merge_suggestions` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `sources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`base_url` text NOT NULL,
	`name` text NOT NULL,
	`family` text,
	`family_given` integer DEFAULT false NOT NULL,
	`priority` integer DEFAULT 100 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`down` integer DEFAULT false NOT NULL,
	`backoff_until` integer,
	`last_crawl_at` integer,
	`last_ok_at` integer,
	`last_error` text,
	`checked_at` integer,
	`answering` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sources_base_url_unique` ON `sources` (`base_url`);--> statement-breakpoint
CREATE UNIQUE INDEX `sources_name_unique` ON `sources` (`name`);--> statement-breakpoint
ALTER TABLE `crawl_runs` ADD `films_merged` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `crawl_runs` ADD `source_id` integer;--> statement-breakpoint
ALTER TABLE `crawl_runs` ADD `schedule_id` integer;--> statement-breakpoint
CREATE INDEX `crawl_runs_schedule` ON `crawl_runs` (`schedule_id`);--> statement-breakpoint
ALTER TABLE `crawl_schedules` ADD `source_id` integer;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `source_keys` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `tmdb_type` text;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `tmdb_id` text;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `tmdb_season` integer;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `imdb_id` text;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `origin_key` text;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `year` integer;--> statement-breakpoint
ALTER TABLE `deleted_films` ADD `kind` text;--> statement-breakpoint
ALTER TABLE `episodes` ADD `film_source_id` integer REFERENCES film_sources(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `episodes_film_source` ON `episodes` (`film_source_id`);--> statement-breakpoint
ALTER TABLE `films` ADD `tmdb_type` text;--> statement-breakpoint
ALTER TABLE `films` ADD `tmdb_id` text;--> statement-breakpoint
ALTER TABLE `films` ADD `tmdb_season` integer;--> statement-breakpoint
ALTER TABLE `films` ADD `imdb_id` text;--> statement-breakpoint
ALTER TABLE `films` ADD `origin_key` text;--> statement-breakpoint
ALTER TABLE `films` ADD `kind` text;--> statement-breakpoint
ALTER TABLE `films` ADD `locked` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX `films_tmdb` ON `films` (`tmdb_id`);--> statement-breakpoint
CREATE INDEX `films_imdb` ON `films` (`imdb_id`);--> statement-breakpoint
CREATE INDEX `films_origin_key` ON `films` (`origin_key`,`year`);--> statement-breakpoint
-- Hand-written below (docs/decisions/0104-one-film-every-source.md): the sources crawled so far become registered
-- sources (named by host and path until their family is detected), and every crawled film gets its source item, so
-- the next crawl of each source updates its own films instead of matching them again.
INSERT OR IGNORE INTO `sources` (`base_url`, `name`, `priority`)
  SELECT `source`, replace(replace(`source`, 'https://', ''), 'http://', ''), 100 + min(`id`) FROM `crawl_runs` GROUP BY `source`;
--> statement-breakpoint
INSERT OR IGNORE INTO `film_sources` (`film_id`, `source_id`, `source_key`, `source_slug`, `label`, `checksum`)
  SELECT f.`id`,
    (SELECT s.`id` FROM `sources` s
      WHERE s.`base_url` = substr(rtrim(f.`source_key`, replace(f.`source_key`, ':', '')), 1, length(rtrim(f.`source_key`, replace(f.`source_key`, ':', ''))) - 1)
         OR s.`base_url` LIKE substr(rtrim(f.`source_key`, replace(f.`source_key`, ':', '')), 1, length(rtrim(f.`source_key`, replace(f.`source_key`, ':', ''))) - 1) || '/%'
      ORDER BY s.`id` LIMIT 1),
    f.`source_key`, '', '', f.`source_checksum`
  FROM `films` f WHERE f.`source_key` IS NOT NULL;
--> statement-breakpoint
UPDATE `episodes` SET `film_source_id` = (SELECT fs.`id` FROM `film_sources` fs WHERE fs.`film_id` = `episodes`.`film_id`)
  WHERE `created_by` IS NULL AND `updated_by` IS NULL AND `film_id` IN (SELECT `film_id` FROM `film_sources`);
--> statement-breakpoint
UPDATE `deleted_films` SET `source_keys` = json_array(`source_key`) WHERE `source_key` IS NOT NULL;
