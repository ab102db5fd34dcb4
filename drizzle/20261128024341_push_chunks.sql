CREATE TABLE `push_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`release_id` integer NOT NULL,
	`pending` text NOT NULL,
	`size` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`sent` integer DEFAULT 0 NOT NULL,
	`gone` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`done_at` integer,
	FOREIGN KEY (`release_id`) REFERENCES `episode_releases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `push_chunks_due` ON `push_chunks` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `push_chunks_release` ON `push_chunks` (`release_id`);