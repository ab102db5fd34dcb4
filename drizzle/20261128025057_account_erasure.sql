CREATE TABLE `erased_accounts` (
	`email_hash` text PRIMARY KEY NOT NULL,
	`erased_at` integer NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`plan` text NOT NULL,
	`months` integer NOT NULL,
	`amount` integer NOT NULL,
	`gateway` text NOT NULL,
	`txn_ref` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`provider_txn_id` text,
	`provider_payload` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`paid_at` integer,
	`confirmed_by` integer,
	`confirmed_by_email` text,
	`payment_code` text,
	`gateway_raw` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`confirmed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "user_id", "plan", "months", "amount", "gateway", "txn_ref", "status", "provider_txn_id", "provider_payload", "created_at", "paid_at", "confirmed_by", "confirmed_by_email", "payment_code", "gateway_raw") SELECT "id", "user_id", "plan", "months", "amount", "gateway", "txn_ref", "status", "provider_txn_id", "provider_payload", "created_at", "paid_at", "confirmed_by", "confirmed_by_email", "payment_code", "gateway_raw" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_txn_ref_unique` ON `payments` (`txn_ref`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_payment_code_unique` ON `payments` (`payment_code`);--> statement-breakpoint
CREATE INDEX `payments_user` ON `payments` (`user_id`);--> statement-breakpoint
CREATE INDEX `payments_status_created` ON `payments` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `__new_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`plan` text NOT NULL,
	`payment_id` integer,
	`starts_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_subscriptions`("id", "user_id", "plan", "payment_id", "starts_at", "expires_at", "created_at") SELECT "id", "user_id", "plan", "payment_id", "starts_at", "expires_at", "created_at" FROM `subscriptions`;--> statement-breakpoint
DROP TABLE `subscriptions`;--> statement-breakpoint
ALTER TABLE `__new_subscriptions` RENAME TO `subscriptions`;--> statement-breakpoint
CREATE INDEX `subscriptions_user_expires` ON `subscriptions` (`user_id`,`expires_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `deletion_requested_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `deletion_due_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `deletion_comments` text;