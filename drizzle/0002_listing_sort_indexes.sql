CREATE INDEX `films_category_views` ON `films` (`category_id`,`views`);--> statement-breakpoint
CREATE INDEX `films_category_created` ON `films` (`category_id`,`created_at`);