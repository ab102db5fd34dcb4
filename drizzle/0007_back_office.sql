CREATE TABLE `deleted_films` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source_key` text,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`snapshot` text NOT NULL,
	`deleted_by` integer,
	`deleted_by_email` text DEFAULT '' NOT NULL,
	`deleted_at` integer NOT NULL,
	FOREIGN KEY (`deleted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deleted_films_source_key_unique` ON `deleted_films` (`source_key`);--> statement-breakpoint
CREATE INDEX `deleted_films_deleted_at` ON `deleted_films` (`deleted_at`);--> statement-breakpoint
ALTER TABLE `episodes` ADD `created_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `episodes` ADD `updated_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `films` ADD `created_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `films` ADD `updated_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `films_created_by` ON `films` (`created_by`);--> statement-breakpoint
ALTER TABLE `payments` ADD `confirmed_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `confirmed_by_email` text;--> statement-breakpoint
CREATE INDEX `payments_status_created` ON `payments` (`status`,`created_at`);--> statement-breakpoint
-- Confirmations made before confirmed_by existed: the admin's id was kept as provider_txn_id 'admin:{id}'.
UPDATE `payments` SET `confirmed_by` = CAST(substr(`provider_txn_id`, 7) AS INTEGER),
  `confirmed_by_email` = (SELECT `email` FROM `users` WHERE `users`.`id` = CAST(substr(`payments`.`provider_txn_id`, 7) AS INTEGER))
  WHERE `provider_txn_id` LIKE 'admin:%' AND EXISTS (SELECT 1 FROM `users` WHERE `users`.`id` = CAST(substr(`payments`.`provider_txn_id`, 7) AS INTEGER));
--> statement-breakpoint
-- The admin user search ignores diacritics like the public search (worker/db/fold.ts): email and username
-- folded in SQL (Vietnamese vowels with their tone marks and đ to plain letters, then lower case), computed
-- on read. SQLite's parser takes about 25 nested calls per expression, so the replacements are chained
-- through virtual columns of 20 each.
ALTER TABLE `users` ADD `search_fold_0` text GENERATED ALWAYS AS (coalesce(`email`, '') || ' ' || coalesce(`username`, '')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `users` ADD `search_fold_1` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`search_fold_0`, 'à', 'a'), 'À', 'a'), 'á', 'a'), 'Á', 'a'), 'ã', 'a'), 'Ã', 'a'), 'ả', 'a'), 'Ả', 'a'), 'ạ', 'a'), 'Ạ', 'a'), 'ă', 'a'), 'Ă', 'a'), 'ằ', 'a'), 'Ằ', 'a'), 'ắ', 'a'), 'Ắ', 'a'), 'ẵ', 'a'), 'Ẵ', 'a'), 'ẳ', 'a'), 'Ẳ', 'a')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `users` ADD `search_fold_2` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`search_fold_1`, 'ặ', 'a'), 'Ặ', 'a'), 'â', 'a'), 'Â', 'a'), 'ầ', 'a'), 'Ầ', 'a'), 'ấ', 'a'), 'Ấ', 'a'), 'ẫ', 'a'), 'Ẫ', 'a'), 'ẩ', 'a'), 'Ẩ', 'a'), 'ậ', 'a'), 'Ậ', 'a'), 'è', 'e'), 'È', 'e'), 'é', 'e'), 'É', 'e'), 'ẽ', 'e'), 'Ẽ', 'e')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `users` ADD `search_fold_3` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`search_fold_2`, 'ẻ', 'e'), 'Ẻ', 'e'), 'ẹ', 'e'), 'Ẹ', 'e'), 'ê', 'e'), 'Ê', 'e'), 'ề', 'e'), 'Ề', 'e'), 'ế', 'e'), 'Ế', 'e'), 'ễ', 'e'), 'Ễ', 'e'), 'ể', 'e'), 'Ể', 'e'), 'ệ', 'e'), 'Ệ', 'e'), 'ì', 'i'), 'Ì', 'i'), 'í', 'i'), 'Í', 'i')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `users` ADD `search_fold_4` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`search_fold_3`, 'ĩ', 'i'), 'Ĩ', 'i'), 'ỉ', 'i'), 'Ỉ', 'i'), 'ị', 'i'), 'Ị', 'i'), 'ò', 'o'), 'Ò', 'o'), 'ó', 'o'), 'Ó', 'o'), 'õ', 'o'), 'Õ', 'o'), 'ỏ', 'o'), 'Ỏ', 'o'), 'ọ', 'o'), 'Ọ', 'o'), 'ô', 'o'), 'Ô', 'o'), 'ồ', 'o'), 'Ồ', 'o')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `users` ADD `search_fold_5` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`search_fold_4`, 'ố', 'o'), 'Ố', 'o'), 'ỗ', 'o'), 'Ỗ', 'o'), 'ổ', 'o'), 'Ổ', 'o'), 'ộ', 'o'), 'Ộ', 'o'), 'ơ', 'o'), 'Ơ', 'o'), 'ờ', 'o'), 'Ờ', 'o'), 'ớ', 'o'), 'Ớ', 'o'), 'ỡ', 'o'), 'Ỡ', 'o'), 'ở', 'o'), 'Ở', 'o'), 'ợ', 'o'), 'Ợ', 'o')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `users` ADD `search_fold_6` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`search_fold_5`, 'ù', 'u'), 'Ù', 'u'), 'ú', 'u'), 'Ú', 'u'), 'ũ', 'u'), 'Ũ', 'u'), 'ủ', 'u'), 'Ủ', 'u'), 'ụ', 'u'), 'Ụ', 'u'), 'ư', 'u'), 'Ư', 'u'), 'ừ', 'u'), 'Ừ', 'u'), 'ứ', 'u'), 'Ứ', 'u'), 'ữ', 'u'), 'Ữ', 'u'), 'ử', 'u'), 'Ử', 'u')) VIRTUAL;
--> statement-breakpoint
ALTER TABLE `users` ADD `search_folded` text GENERATED ALWAYS AS (lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(`search_fold_6`, 'ự', 'u'), 'Ự', 'u'), 'ỳ', 'y'), 'Ỳ', 'y'), 'ý', 'y'), 'Ý', 'y'), 'ỹ', 'y'), 'Ỹ', 'y'), 'ỷ', 'y'), 'Ỷ', 'y'), 'ỵ', 'y'), 'Ỵ', 'y'), 'đ', 'd'), 'Đ', 'd'))) VIRTUAL;
