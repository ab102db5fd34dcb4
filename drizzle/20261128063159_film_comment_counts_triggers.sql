-- A film's visible comments, counted once and kept by triggers (docs/decisions/1000-bounded-comment-thread.md):
-- the film page reads one row instead of counting a premiere's thread on every load.
INSERT INTO `film_comment_counts` (`film_id`, `visible`)
  SELECT `film_id`, count(*) FROM `comments` WHERE `status` = 'visible' GROUP BY `film_id`;
--> statement-breakpoint
CREATE TRIGGER `film_comment_counts_insert` AFTER INSERT ON `comments` WHEN new.`status` = 'visible' BEGIN
  INSERT INTO `film_comment_counts` (`film_id`, `visible`) VALUES (new.`film_id`, 1)
    ON CONFLICT (`film_id`) DO UPDATE SET `visible` = `visible` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `film_comment_counts_delete` AFTER DELETE ON `comments` WHEN old.`status` = 'visible' BEGIN
  UPDATE `film_comment_counts` SET `visible` = `visible` - 1 WHERE `film_id` = old.`film_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `film_comment_counts_update` AFTER UPDATE OF `status`, `film_id` ON `comments`
  WHEN (old.`status` = 'visible') <> (new.`status` = 'visible') OR (old.`film_id` <> new.`film_id` AND old.`status` = 'visible')
BEGIN
  UPDATE `film_comment_counts` SET `visible` = `visible` - 1 WHERE `film_id` = old.`film_id` AND old.`status` = 'visible';
  INSERT INTO `film_comment_counts` (`film_id`, `visible`) SELECT new.`film_id`, 1 WHERE new.`status` = 'visible'
    ON CONFLICT (`film_id`) DO UPDATE SET `visible` = `visible` + 1;
END;
