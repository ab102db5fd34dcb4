CREATE TABLE `film_related` (
	`film_id` integer NOT NULL,
	`rank` integer NOT NULL,
	`related_id` integer NOT NULL,
	`score` real NOT NULL,
	`reason` text NOT NULL,
	`reason_name` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`film_id`, `rank`),
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`related_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `film_related_state` (
	`film_id` integer PRIMARY KEY NOT NULL,
	`refreshed_at` integer NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `film_related_state_age` ON `film_related_state` (`refreshed_at`);--> statement-breakpoint
CREATE INDEX `plays_film_device` ON `plays` (`film_id`,`device`,`day`);--> statement-breakpoint
CREATE INDEX `plays_device_film` ON `plays` (`device`,`film_id`,`day`);