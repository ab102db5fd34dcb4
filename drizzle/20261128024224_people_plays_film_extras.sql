CREATE TABLE `film_people` (
	`film_id` integer NOT NULL,
	`person_id` integer NOT NULL,
	`role` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`film_id`, `role`, `person_id`),
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `film_people_person` ON `film_people` (`person_id`,`role`,`film_id`);--> statement-breakpoint
CREATE TABLE `people` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`folded` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `people_slug_unique` ON `people` (`slug`);--> statement-breakpoint
CREATE INDEX `people_folded` ON `people` (`folded`);--> statement-breakpoint
CREATE TABLE `play_counts` (
	`day` integer NOT NULL,
	`film_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`plays` integer NOT NULL,
	PRIMARY KEY(`day`, `film_id`)
);
--> statement-breakpoint
CREATE INDEX `play_counts_rank` ON `play_counts` (`day`,`category_id`,`plays`,`film_id`);--> statement-breakpoint
CREATE TABLE `plays` (
	`day` integer NOT NULL,
	`film_id` integer NOT NULL,
	`device` text NOT NULL,
	`played_at` integer NOT NULL,
	PRIMARY KEY(`day`, `film_id`, `device`),
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `films` ADD `trailer_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `films` ADD `showtimes` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `films` ADD `notify` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `films` ADD `chieurap` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `films` ADD `tmdb_vote_average` real;--> statement-breakpoint
ALTER TABLE `films` ADD `tmdb_vote_count` integer;--> statement-breakpoint
CREATE INDEX `films_chieurap_updated` ON `films` (`chieurap`,`updated_at`);