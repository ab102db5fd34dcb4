ALTER TABLE `audit_log` ADD `undone_at` integer;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `undo_of` integer;