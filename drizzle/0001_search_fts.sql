-- Vietnamese search (docs/decisions/0002-vietnamese-search.md): FTS5 trigram index over films.search_text, which the app fills
-- with fold(title + ' ' + name_english). External content: the index stores only trigrams.
CREATE VIRTUAL TABLE films_fts USING fts5(search_text, content='films', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO films_fts(rowid, search_text) SELECT id, search_text FROM films;
--> statement-breakpoint
CREATE TRIGGER films_fts_after_insert AFTER INSERT ON films BEGIN
  INSERT INTO films_fts(rowid, search_text) VALUES (new.id, new.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER films_fts_after_delete AFTER DELETE ON films BEGIN
  INSERT INTO films_fts(films_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER films_fts_after_update AFTER UPDATE OF search_text ON films BEGIN
  INSERT INTO films_fts(films_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
  INSERT INTO films_fts(rowid, search_text) VALUES (new.id, new.search_text);
END;
