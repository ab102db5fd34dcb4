CREATE TABLE `categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_slug_unique` ON `categories` (`slug`);--> statement-breakpoint
CREATE TABLE `comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`parent_id` integer,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `comments_film_created` ON `comments` (`film_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_parent` ON `comments` (`parent_id`);--> statement-breakpoint
CREATE TABLE `countries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `countries_slug_unique` ON `countries` (`slug`);--> statement-breakpoint
CREATE TABLE `crawl_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`trigger` text NOT NULL,
	`params` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`progress` text DEFAULT '{}' NOT NULL,
	`pages_done` integer DEFAULT 0 NOT NULL,
	`films_new` integer DEFAULT 0 NOT NULL,
	`films_updated` integer DEFAULT 0 NOT NULL,
	`films_skipped` integer DEFAULT 0 NOT NULL,
	`films_failed` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `crawl_runs_status` ON `crawl_runs` (`status`,`source`);--> statement-breakpoint
CREATE TABLE `crawl_schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`crawl_date` text NOT NULL,
	`crawl_time` text NOT NULL,
	`run_at` integer NOT NULL,
	`categories` text NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`crawl_run_id` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`crawl_run_id`) REFERENCES `crawl_runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `crawl_schedules_due` ON `crawl_schedules` (`status`,`run_at`);--> statement-breakpoint
CREATE TABLE `episodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_id` integer NOT NULL,
	`server_name` text DEFAULT 'Vietsub #1' NOT NULL,
	`episode` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`m3u8_url` text DEFAULT '' NOT NULL,
	`embed_url` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `episodes_film_server_episode` ON `episodes` (`film_id`,`server_name`,`episode`);--> statement-breakpoint
CREATE TABLE `error_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_id` integer NOT NULL,
	`episode` integer,
	`server_name` text,
	`reason` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`user_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`resolved_at` integer,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `error_reports_film` ON `error_reports` (`film_id`);--> statement-breakpoint
CREATE TABLE `film_countries` (
	`film_id` integer NOT NULL,
	`country_id` integer NOT NULL,
	PRIMARY KEY(`film_id`, `country_id`),
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `film_countries_country` ON `film_countries` (`country_id`,`film_id`);--> statement-breakpoint
CREATE TABLE `film_genres` (
	`film_id` integer NOT NULL,
	`genre_id` integer NOT NULL,
	PRIMARY KEY(`film_id`, `genre_id`),
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`genre_id`) REFERENCES `genres`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `film_genres_genre` ON `film_genres` (`genre_id`,`film_id`);--> statement-breakpoint
CREATE TABLE `films` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`name_english` text DEFAULT '' NOT NULL,
	`poster_url` text DEFAULT '' NOT NULL,
	`thumb_url` text DEFAULT '' NOT NULL,
	`status_text` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'ongoing' NOT NULL,
	`language` text DEFAULT '' NOT NULL,
	`episode_count_text` text DEFAULT '' NOT NULL,
	`duration` text DEFAULT '' NOT NULL,
	`year` integer,
	`quality` text DEFAULT '' NOT NULL,
	`director` text DEFAULT '' NOT NULL,
	`actors` text DEFAULT '' NOT NULL,
	`genre_names` text DEFAULT '' NOT NULL,
	`country_names` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`likes` integer DEFAULT 0 NOT NULL,
	`category_id` integer NOT NULL,
	`vip_only` integer DEFAULT false NOT NULL,
	`title_folded` text DEFAULT '' NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`source_key` text,
	`source_checksum` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `films_slug_unique` ON `films` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `films_source_key_unique` ON `films` (`source_key`);--> statement-breakpoint
CREATE INDEX `films_category_updated` ON `films` (`category_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `films_updated` ON `films` (`updated_at`);--> statement-breakpoint
CREATE INDEX `films_created` ON `films` (`created_at`);--> statement-breakpoint
CREATE INDEX `films_views` ON `films` (`views`);--> statement-breakpoint
CREATE INDEX `films_year` ON `films` (`year`);--> statement-breakpoint
CREATE INDEX `films_status_updated` ON `films` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `films_title_folded` ON `films` (`title_folded`);--> statement-breakpoint
CREATE TABLE `genres` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `genres_slug_unique` ON `genres` (`slug`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`plan` text NOT NULL,
	`months` integer NOT NULL,
	`amount` integer NOT NULL,
	`gateway` text NOT NULL,
	`txn_ref` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`provider_txn_id` text,
	`provider_payload` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_txn_ref_unique` ON `payments` (`txn_ref`);--> statement-breakpoint
CREATE INDEX `payments_user` ON `payments` (`user_id`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`window_start` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ratings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`stars` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ratings_film_user` ON `ratings` (`film_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`family_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`revoked_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_token_hash_unique` ON `refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_family` ON `refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_user` ON `refresh_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`plan` text NOT NULL,
	`payment_id` integer,
	`starts_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `subscriptions_user_expires` ON `subscriptions` (`user_id`,`expires_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`password_hash` text,
	`google_sub` text,
	`roles` text DEFAULT 'user' NOT NULL,
	`permissions` text DEFAULT '' NOT NULL,
	`session_epoch` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_sub_unique` ON `users` (`google_sub`);--> statement-breakpoint
CREATE TABLE `view_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_id` integer NOT NULL,
	`viewed_at` integer NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `view_events_time_film` ON `view_events` (`viewed_at`,`film_id`);