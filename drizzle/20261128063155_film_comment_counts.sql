CREATE TABLE `film_comment_counts` (
	`film_id` integer PRIMARY KEY NOT NULL,
	`visible` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`film_id`) REFERENCES `films`(`id`) ON UPDATE no action ON DELETE cascade
);
