CREATE TABLE `film_slow_mode` (
	`film_id` integer PRIMARY KEY NOT NULL,
	`manual` text,
	`auto_until` integer DEFAULT 0 NOT NULL,
	`announced` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `comments` ADD `client_id` text;--> statement-breakpoint
CREATE INDEX `comments_film_thread` ON `comments` (`film_id`,`parent_id`,`id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `comments_user_client` ON `comments` (`user_id`,`client_id`);