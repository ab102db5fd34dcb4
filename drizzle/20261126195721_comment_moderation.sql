CREATE TABLE `comment_hidden_authors` (
	`user_id` integer NOT NULL,
	`hidden_user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `hidden_user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`hidden_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `comment_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`comment_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `comment_reports_comment_user` ON `comment_reports` (`comment_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `comment_reports_user` ON `comment_reports` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `comment_words` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phrase` text NOT NULL,
	`action` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `comments` ADD `status` text DEFAULT 'visible' NOT NULL;--> statement-breakpoint
ALTER TABLE `comments` ADD `hold_reason` text;--> statement-breakpoint
ALTER TABLE `comments` ADD `spoiler` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `comments` ADD `episode` integer;--> statement-breakpoint
ALTER TABLE `comments` ADD `raw_body` text;--> statement-breakpoint
ALTER TABLE `comments` ADD `fingerprint` text;--> statement-breakpoint
ALTER TABLE `comments` ADD `open_reports` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `comments` ADD `queued_at` integer;--> statement-breakpoint
ALTER TABLE `comments` ADD `removed_at` integer;--> statement-breakpoint
ALTER TABLE `comments` ADD `removed_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `comments` ADD `removal_reason` text;--> statement-breakpoint
CREATE INDEX `comments_queued` ON `comments` (`queued_at`);--> statement-breakpoint
CREATE INDEX `comments_user_created` ON `comments` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_fingerprint` ON `comments` (`fingerprint`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `muted_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `muted_until` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `mute_reason` text;--> statement-breakpoint
ALTER TABLE `users` ADD `banned_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `ban_reason` text;