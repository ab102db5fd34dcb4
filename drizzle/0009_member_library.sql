CREATE TABLE `episode_releases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`film_id` integer NOT NULL,
	`episode` integer NOT NULL,
	`created_at` integer NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`done_at` integer,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `episode_releases_film_episode` ON `episode_releases` (`film_id`,`episode`);--> statement-breakpoint
CREATE INDEX `episode_releases_done` ON `episode_releases` (`done_at`);--> statement-breakpoint
CREATE TABLE `library_state` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`list_seen_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint_unique` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_user` ON `push_subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `watch_progress` (
	`user_id` integer NOT NULL,
	`film_id` integer NOT NULL,
	`episode` integer NOT NULL,
	`position` real NOT NULL,
	`duration` real NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `film_id`, `episode`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `watch_progress_user_updated` ON `watch_progress` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `watch_progress_updated` ON `watch_progress` (`updated_at`);--> statement-breakpoint
CREATE TABLE `watchlist` (
	`user_id` integer NOT NULL,
	`film_id` integer NOT NULL,
	`notify` integer DEFAULT true NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `film_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `watchlist_user_added` ON `watchlist` (`user_id`,`added_at`);--> statement-breakpoint
CREATE INDEX `watchlist_film` ON `watchlist` (`film_id`);