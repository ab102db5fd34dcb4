-- Plays rank, page loads do not (issue 40 §3, docs/decisions/1071-plays-rank.md). A play (a device's 120 s of a film on
-- an Asia/Ho_Chi_Minh day, deduped by the plays primary key) counts once in play_counts, the Top 10's daily table, and
-- once in the trending rollup (film_views_hourly, trending_views of docs/decisions/0607), which film-page loads
-- (view_events, still kept for the admin's statistics and films.views) no longer feed.
CREATE TRIGGER plays_counts AFTER INSERT ON plays BEGIN
  INSERT INTO play_counts (day, film_id, category_id, plays)
    VALUES (new.day, new.film_id, coalesce((SELECT category_id FROM films WHERE id = new.film_id), 0), 1)
    ON CONFLICT (day, film_id) DO UPDATE SET plays = plays + 1;
  INSERT INTO film_views_hourly (hour, film_id, views) VALUES (new.played_at / 3600000, new.film_id, 1)
    ON CONFLICT (hour, film_id) DO UPDATE SET views = views + 1;
  INSERT INTO trending_views (span, film_id, views, film_views)
    SELECT name, new.film_id, 1, (SELECT views FROM films WHERE id = new.film_id) FROM trending_windows WHERE new.played_at / 3600000 >= since_hour
    ON CONFLICT (span, film_id) DO UPDATE SET views = views + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS view_events_rollup;
--> statement-breakpoint
CREATE TRIGGER films_play_counts_after_delete AFTER DELETE ON films BEGIN
  DELETE FROM play_counts WHERE film_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER films_play_counts_after_category AFTER UPDATE OF category_id ON films WHEN old.category_id IS NOT new.category_id BEGIN
  UPDATE play_counts SET category_id = new.category_id WHERE film_id = new.id;
END;
