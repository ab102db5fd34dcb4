CREATE TABLE `bank_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider_id` text NOT NULL,
	`gateway` text NOT NULL,
	`transaction_date` text NOT NULL,
	`account_number` text NOT NULL,
	`code` text,
	`content` text NOT NULL,
	`transfer_type` text NOT NULL,
	`transfer_amount` integer NOT NULL,
	`reference_code` text NOT NULL,
	`raw` text NOT NULL,
	`status` text DEFAULT 'received' NOT NULL,
	`reason` text,
	`matched_code` text,
	`payment_id` integer,
	`received_at` integer NOT NULL,
	`resolved_by` integer,
	`resolved_by_email` text,
	`resolved_at` integer,
	`resolution` text,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bank_transactions_provider_id_unique` ON `bank_transactions` (`provider_id`);--> statement-breakpoint
CREATE INDEX `bank_transactions_status_received` ON `bank_transactions` (`status`,`received_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `payment_code` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_payment_code_unique` ON `payments` (`payment_code`);