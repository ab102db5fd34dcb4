CREATE INDEX `comments_film_id` ON `comments` (`film_id`,`id`);--> statement-breakpoint
CREATE INDEX `comments_film_status_id` ON `comments` (`film_id`,`status`,`id`);