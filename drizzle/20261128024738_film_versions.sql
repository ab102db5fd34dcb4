CREATE TABLE `film_versions` (
	`slug` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `film_versions_version` ON `film_versions` (`version`);--> statement-breakpoint
ALTER TABLE `catalogue_version` ADD `lists` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `catalogue_version` ADD `epoch` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `catalogue_version` ADD `scoped` integer DEFAULT 0 NOT NULL;