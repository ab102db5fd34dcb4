CREATE TABLE `segment_reports` (
	`film_id` integer NOT NULL,
	`episode` integer NOT NULL,
	`server` text NOT NULL,
	`kind` text NOT NULL,
	`device` text NOT NULL,
	`start` real NOT NULL,
	`before` real NOT NULL,
	`end` real NOT NULL,
	`duration` real NOT NULL,
	`stepped` integer DEFAULT false NOT NULL,
	`via` text NOT NULL,
	`back` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`film_id`, `episode`, `server`, `kind`, `device`),
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `segments` (
	`film_id` integer NOT NULL,
	`episode` integer NOT NULL,
	`server` text NOT NULL,
	`kind` text NOT NULL,
	`start` real NOT NULL,
	`end` real NOT NULL,
	`devices` integer DEFAULT 0 NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`locked` integer DEFAULT false NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`film_id`, `episode`, `server`, `kind`),
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
