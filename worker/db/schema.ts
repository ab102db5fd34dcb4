// The whole product's data model, designed once. Later features add behaviour, not tables.
// Times are unix milliseconds. Wire names (spec's Vietnamese fields) are mapped in services, not here.
import { relations, sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const createdAt = () => integer('created_at').notNull().default(sql`(unixepoch('subsec') * 1000)`);
const updatedAt = () => integer('updated_at').notNull().default(sql`(unixepoch('subsec') * 1000)`);

/** Type ids 24..27 are fixed by the spec's filter bar (Phim Bộ, Phim Lẻ, TV Show, Phim Sắp Chiếu). */
export const categories = sqliteTable('categories', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
});

export const genres = sqliteTable('genres', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
});

export const countries = sqliteTable('countries', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
});

export const films = sqliteTable(
  'films',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    nameEnglish: text('name_english').notNull().default(''),
    posterUrl: text('poster_url').notNull().default(''),
    thumbUrl: text('thumb_url').notNull().default(''),
    /** Display status, e.g. 'Hoàn Tất (16/16)', 'Tập 5', 'Trailer'. */
    statusText: text('status_text').notNull().default(''),
    /** Normalised status: ongoing | completed | trailer. */
    status: text('status', { enum: ['ongoing', 'completed', 'trailer'] })
      .notNull()
      .default('ongoing'),
    language: text('language').notNull().default(''),
    episodeCountText: text('episode_count_text').notNull().default(''),
    duration: text('duration').notNull().default(''),
    year: integer('year'),
    quality: text('quality').notNull().default(''),
    director: text('director').notNull().default(''),
    actors: text('actors').notNull().default(''),
    /** Denormalised comma-separated genre and country names, the spec's theloai / quocgia. */
    genreNames: text('genre_names').notNull().default(''),
    countryNames: text('country_names').notNull().default(''),
    description: text('description').notNull().default(''),
    views: integer('views').notNull().default(0),
    likes: integer('likes').notNull().default(0),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    vipOnly: integer('vip_only', { mode: 'boolean' }).notNull().default(false),
    /** fold(title) and fold(title + ' ' + nameEnglish): see db/fold.ts; films_fts indexes searchText. */
    titleFolded: text('title_folded').notNull().default(''),
    searchText: text('search_text').notNull().default(''),
    sourceKey: text('source_key').unique(),
    sourceChecksum: text('source_checksum'),
    /** Who added and who last changed the film; null for the crawler (docs/decisions/0700). */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // One film, every source (docs/decisions/0104-one-film-every-source.md): the external ids that tell films
    // apart across sources, as the sources gave them (normalised: services/films/film-identity.ts); null when no
    // source gave one. kind: 'single' | 'series'; originKey: the folded original name. Films added by hand have none.
    tmdbType: text('tmdb_type', { enum: ['movie', 'tv'] }),
    tmdbId: text('tmdb_id'),
    tmdbSeason: integer('tmdb_season'),
    imdbId: text('imdb_id'),
    originKey: text('origin_key'),
    kind: text('kind', { enum: ['single', 'series'] }),
    /**
     * What an admin changed by hand, which no source overwrites (JSON { fields: string[], removed: string[] }: film
     * writer field names, and '{server}\u0000{episode}' of episodes an admin deleted).
     */
    locked: text('locked').notNull().default('{}'),
    // What the source says beside the film (issue 40 §2, docs/decisions/1070): a YouTube video id (11 characters,
    // else ''), the source's schedule and notice as plain text (never HTML), "Phim chiếu rạp", TMDB's score and
    // how many votes it rests on.
    trailerId: text('trailer_id').notNull().default(''),
    showtimes: text('showtimes').notNull().default(''),
    notify: text('notify').notNull().default(''),
    chieurap: integer('chieurap', { mode: 'boolean' }).notNull().default(false),
    tmdbVoteAverage: real('tmdb_vote_average'),
    tmdbVoteCount: integer('tmdb_vote_count'),
  },
  (t) => [
    index('films_created_by').on(t.createdBy),
    index('films_chieurap_updated').on(t.chieurap, t.updatedAt),
    index('films_tmdb').on(t.tmdbId),
    index('films_imdb').on(t.imdbId),
    index('films_origin_key').on(t.originKey, t.year),
    index('films_category_updated').on(t.categoryId, t.updatedAt),
    index('films_category_views').on(t.categoryId, t.views),
    index('films_category_created').on(t.categoryId, t.createdAt),
    /** Counts a type listing filtered by year from the index alone (docs/decisions/0607). */
    index('films_category_year').on(t.categoryId, t.year),
    index('films_updated').on(t.updatedAt),
    index('films_created').on(t.createdAt),
    index('films_views').on(t.views),
    index('films_year').on(t.year),
    // A year filter inside a genre or country listing walks its year in the page's order and stops after a
    // page (docs/decisions/0608), instead of sorting the whole year.
    index('films_year_updated').on(t.year, t.updatedAt),
    index('films_year_views').on(t.year, t.views),
    index('films_year_created').on(t.year, t.createdAt),
    index('films_status_updated').on(t.status, t.updatedAt),
    index('films_title_folded').on(t.titleFolded),
    // Search candidates ranked from the index alone, without reading a film row each (docs/decisions/0608).
    index('films_title_views').on(t.titleFolded, t.views),
  ],
);

export const filmGenres = sqliteTable(
  'film_genres',
  {
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    genreId: integer('genre_id')
      .notNull()
      .references(() => genres.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.filmId, t.genreId] }), index('film_genres_genre').on(t.genreId, t.filmId)],
);

export const filmCountries = sqliteTable(
  'film_countries',
  {
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.filmId, t.countryId] }), index('film_countries_country').on(t.countryId, t.filmId)],
);

export const episodes = sqliteTable(
  'episodes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    serverName: text('server_name').notNull().default('Vietsub #1'),
    /** Episode number for ordering and /tap-{n}; a single film's 'Full' is 1. */
    episode: integer('episode').notNull(),
    name: text('name').notNull().default(''),
    m3u8Url: text('m3u8_url').notNull().default(''),
    embedUrl: text('embed_url').notNull().default(''),
    /** Who added and who last changed the episode; null for the crawler. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** The source's film this episode came from (its server name carries the source's label); null: added by hand. */
    filmSourceId: integer('film_source_id').references(() => filmSources.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('episodes_film_server_episode').on(t.filmId, t.serverName, t.episode),
    index('episodes_film_source').on(t.filmSourceId),
  ],
);

/**
 * One row (id 1): the catalogue's version, raised by triggers on every change to what a catalogue page shows:
 * films (not their view/like counters), episodes, genre and country links (drizzle/0008_catalogue_version.sql,
 * scoped since drizzle/*_film_versions_triggers.sql). Public caches key their entries by the part that concerns
 * them (docs/decisions/1020-per-film-cache-versions.md): `lists` is the version of the last change that can move
 * a list, `epoch` of the last change that concerns every page (a raise of `version` that named no film: a
 * source going down or back, a comment shown or hidden), `scoped` of the last raise that named a film.
 */
export const catalogueVersion = sqliteTable('catalogue_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(0),
  lists: integer('lists').notNull().default(0),
  epoch: integer('epoch').notNull().default(0),
  scoped: integer('scoped').notNull().default(0),
});

/**
 * Per film slug: the catalogue version of the last change to that film (its row, episodes, genre or country
 * links), written by the same triggers. A film's pages are keyed by it, so a release of one film leaves every
 * other film's cached pages in use. Keyed by slug, the pages' key, and kept after a delete or a rename so the
 * old slug's pages go too.
 */
export const filmVersions = sqliteTable(
  'film_versions',
  {
    slug: text('slug').primaryKey(),
    version: integer('version').notNull(),
  },
  (t) => [index('film_versions_version').on(t.version)],
);

export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull().unique(),
  username: text('username').notNull(),
  /** Versioned PBKDF2 string, see services/auth/password.ts; null for Google-only accounts. */
  passwordHash: text('password_hash'),
  googleSub: text('google_sub').unique(),
  /** Comma-separated: 'user' | 'admin'. */
  roles: text('roles').notNull().default('user'),
  /** Comma-separated: 'VIP1' | 'VIP2'. */
  permissions: text('permissions').notNull().default(''),
  /** Bumped by "sign out everywhere" and password change: access tokens of older epochs are refused. */
  sessionEpoch: integer('session_epoch').notNull().default(0),
  /** When the current address was proved by opening the mailed link (or by Google); null: "Chưa xác minh". */
  emailVerifiedAt: integer('email_verified_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /** Comment moderation (docs/decisions/0230-comment-moderation.md): muted since, until (null while muted = for good), why. */
  mutedAt: integer('muted_at'),
  mutedUntil: integer('muted_until'),
  muteReason: text('mute_reason'),
  /** Banned: cannot sign in, every session ended; why (the sign-in page says it). Lifted only by an undo. */
  bannedAt: integer('banned_at'),
  banReason: text('ban_reason'),
  /** "Xóa tài khoản" (docs/decisions/1041-account-erasure.md): asked at, erased at or after (7 days later); null when not asked. */
  deletionRequestedAt: integer('deletion_requested_at'),
  deletionDueAt: integer('deletion_due_at'),
  /** What the member chose for their comments: 'anonymise' ("Tài khoản đã xóa", text removed) or 'delete'. */
  deletionComments: text('deletion_comments', { enum: ['anonymise', 'delete'] }),
});

/**
 * An erased account (docs/decisions/1041-account-erasure.md): the HMAC-SHA-256 of its address under a server
 * secret, never the address, so that a restored backup erases it again (reapplyErasures) while the same address
 * may register again as a new member (only accounts created before `erased_at` are erased again).
 */
export const erasedAccounts = sqliteTable('erased_accounts', {
  emailHash: text('email_hash').primaryKey(),
  erasedAt: integer('erased_at').notNull(),
});

export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** All tokens descending from one login share a family; replaying a used one revokes the family. */
    familyId: text('family_id').notNull(),
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    revokedAt: integer('revoked_at'),
    /** The device's User-Agent at sign-in or at its latest renewal (the account's device list). */
    userAgent: text('user_agent').notNull().default(''),
    /** When the family's sign-in happened: carried over to every successor. */
    signedInAt: integer('signed_in_at').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family').on(t.familyId), index('refresh_tokens_user').on(t.userId)],
);

/**
 * Single-use links mailed to a member (docs/decisions/0980): a password reset (30 minutes) or an address
 * verification (24 hours). Only the SHA-256 of the 256-bit token is kept; a newer link of the same purpose,
 * a password change or an address change voids the older ones (used_at set).
 */
export const emailTokens = sqliteTable(
  'email_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['password_reset', 'verify_email'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The address the link was sent to: a verification proves this one, a reset works only while it is the account's. */
    email: text('email').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('email_tokens_user').on(t.userId, t.purpose)],
);

/**
 * Mail to send (services/mail/outbox.ts): written in the same batch as the event (reset asked, order paid),
 * sent right after the request and retried by the scheduler with backoff until sent or failed. `payload`
 * holds what the template needs (a link's token sealed with AES-GCM) and is cleared once the mail is sent.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    payload: text('payload'),
    /** At most one mail per key ever (a receipt per order, a reminder per subscription period). */
    dedupeKey: text('dedupe_key').unique(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull().default(0),
    /** While 'sending': when a sender that stopped half-way is considered gone. */
    leaseUntil: integer('lease_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: integer('sent_at'),
  },
  (t) => [index('mail_outbox_due').on(t.status, t.nextAttemptAt), index('mail_outbox_created').on(t.createdAt)],
);

/** A member's passkeys (WebAuthn credentials; services/auth/passkeys.ts). */
export const passkeys = sqliteTable(
  'passkeys',
  {
    /** The credential id, base64url, as the authenticator gave it. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    /** JSON array of AuthenticatorTransport. */
    transports: text('transports').notNull().default('[]'),
    deviceType: text('device_type').notNull().default('singleDevice'),
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull().default(false),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer('last_used_at'),
  },
  (t) => [index('passkeys_user').on(t.userId)],
);

/** WebAuthn challenges: single use (deleted when answered) and short-lived. */
export const webauthnChallenges = sqliteTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'login'] }).notNull(),
    /** The member adding a passkey; null for a sign-in. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('webauthn_challenges_expires').on(t.expiresAt)],
);

export const comments = sqliteTable(
  'comments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id'),
    /** What readers see: the text as written, with masked words starred (comment filter). */
    body: text('body').notNull(),
    createdAt: createdAt(),
    /**
     * visible: everyone sees it; held: the filter kept it back (its author alone sees it, "Đang chờ duyệt");
     * hidden: enough reports hid it until a moderator decides; removed: a moderator took it down
     * (docs/decisions/0230-comment-moderation.md).
     */
    status: text('status', { enum: ['visible', 'held', 'hidden', 'removed'] })
      .notNull()
      .default('visible'),
    /** Why the filter held it: link, phone, word or duplicate. */
    holdReason: text('hold_reason'),
    /** Marked "Có tiết lộ nội dung" by its author (or by a moderator approving a spoiler report). */
    spoiler: integer('spoiler', { mode: 'boolean' }).notNull().default(false),
    /** The episode it was written under (watch page); null on the film page. */
    episode: integer('episode'),
    /** The text as written, kept only when the filter masked words in body. */
    rawBody: text('raw_body'),
    /** The folded text's key (comment filter): the same text posted again and again is held. */
    fingerprint: text('fingerprint'),
    /** Distinct open reports (comment_reports without resolved_at). */
    openReports: integer('open_reports').notNull().default(0),
    /** When it entered the moderation queue (held, or first open report); null when not in it. */
    queuedAt: integer('queued_at'),
    removedAt: integer('removed_at'),
    removedBy: integer('removed_by').references(() => users.id, { onDelete: 'set null' }),
    /** Shown to the author. */
    removalReason: text('removal_reason'),
    /**
     * Chosen by the page when the member starts the comment and sent again on a retry: one comment however often
     * the POST is retried (unique per author; docs/decisions/1003-comment-client-id.md).
     */
    clientId: text('client_id'),
  },
  (t) => [
    // The newest threads of a film and their count (docs/decisions/1000-bounded-comment-thread.md).
    index('comments_film_thread').on(t.filmId, t.parentId, t.id, t.status),
    // A reconnecting page's catch-up (GET …/comments?since=): what is newer than the newest comment it holds, and
    // what it holds that was taken down, each a seek however long the film's thread (a range of the film's
    // comments walked all 20,000 of a premiere's; docs/decisions/1001-live-thread-on-the-page.md).
    index('comments_film_id').on(t.filmId, t.id),
    index('comments_film_status_id').on(t.filmId, t.status, t.id),
    uniqueIndex('comments_user_client').on(t.userId, t.clientId),
    index('comments_film_created').on(t.filmId, t.createdAt),
    index('comments_parent').on(t.parentId),
    index('comments_queued').on(t.queuedAt),
    index('comments_user_created').on(t.userId, t.createdAt),
    index('comments_fingerprint').on(t.fingerprint, t.createdAt),
  ],
);

/**
 * How many visible comments a film has (the heading's "Bình luận (N)"), kept by triggers on `comments` (insert,
 * delete, a change of status or film) so that a film page reads one row instead of counting a premiere's 20,000
 * comments on every load (docs/decisions/1000-bounded-comment-thread.md).
 */
export const filmCommentCounts = sqliteTable('film_comment_counts', {
  filmId: integer('film_id')
    .primaryKey()
    .references(() => films.id, { onDelete: 'cascade' }),
  visible: integer('visible').notNull().default(0),
});

/**
 * A film's slow mode ("Chế độ chậm", docs/decisions/1002-comment-slow-mode.md): switched on by the accepted rate
 * (autoUntil moves on while it stays high) or by a moderator (manual 'on'/'off' over the automatic one); announced:
 * the seconds the room was last told (0 = off), so each change is pushed once.
 */
export const filmSlowMode = sqliteTable('film_slow_mode', {
  filmId: integer('film_id')
    .primaryKey()
    .references(() => films.id, { onDelete: 'cascade' }),
  manual: text('manual', { enum: ['on', 'off'] }),
  autoUntil: integer('auto_until').notNull().default(0),
  announced: integer('announced').notNull().default(0),
  updatedAt: integer('updated_at').notNull(),
});

/** A member's report of a comment: one per member per comment; resolved when a moderator decides. */
export const commentReports = sqliteTable(
  'comment_reports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** spam | offensive | spoiler | harassment | other (worker/schemas/moderation.ts). */
    reason: text('reason').notNull(),
    /** The reporter's words ("Khác"). */
    note: text('note').notNull().default(''),
    createdAt: integer('created_at').notNull(),
    resolvedAt: integer('resolved_at'),
  },
  (t) => [uniqueIndex('comment_reports_comment_user').on(t.commentId, t.userId), index('comment_reports_user').on(t.userId, t.createdAt)],
);

/** "Ẩn bình luận của người này": a member never sees what another member writes, on any device. */
export const commentHiddenAuthors = sqliteTable(
  'comment_hidden_authors',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hiddenUserId: integer('hidden_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hiddenUserId] })],
);

/** The comment filter's word list, kept by admins: each phrase holds the comment or masks the word. */
export const commentWords = sqliteTable('comment_words', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  phrase: text('phrase').notNull(),
  action: text('action', { enum: ['hold', 'mask'] }).notNull(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const ratings = sqliteTable(
  'ratings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stars: integer('stars').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('ratings_film_user').on(t.filmId, t.userId)],
);

/**
 * Actors and directors (issue 40 §1, docs/decisions/1070): one row per folded name (slug unique), first spelling
 * kept as the name. Derived from films.director / films.actors by the film writer.
 */
export const people = sqliteTable(
  'people',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    /** fold(name): search suggestions match it by prefix. */
    folded: text('folded').notNull(),
  },
  (t) => [index('people_folded').on(t.folded)],
);

/** Who is in or directed a film, in the source's order. */
export const filmPeople = sqliteTable(
  'film_people',
  {
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['actor', 'director'] }).notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.filmId, t.role, t.personId] }), index('film_people_person').on(t.personId, t.role, t.filmId)],
);

/**
 * A play (issue 40 §3, docs/decisions/1071): a device watched a film for 120 s on a day (Asia/Ho_Chi_Minh day
 * number). The primary key is the dedupe: once per device, film and day. `device` is a hash of the device's
 * random id; no IP is kept.
 */
export const plays = sqliteTable(
  'plays',
  {
    day: integer('day').notNull(),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    playedAt: integer('played_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.filmId, t.device] }),
    // "Phim tương tự" (docs/decisions/1090): a film's devices, then what else each of them played.
    index('plays_film_device').on(t.filmId, t.device, t.day),
    index('plays_device_film').on(t.device, t.filmId, t.day),
  ],
);

/**
 * "Phim tương tự" (issue 40 §4, docs/decisions/1090): each film's related films, best first, with the reason the
 * card shows. Written by the scheduled job `related-films` (services/related/related.ts), read in the film's batch.
 */
export const filmRelated = sqliteTable(
  'film_related',
  {
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    rank: integer('rank').notNull(),
    relatedId: integer('related_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    score: real('score').notNull(),
    /** 'cowatch' | 'director' | 'actor' | 'genre' | 'country' | 'year' (schemas/related.ts turns it into text). */
    reason: text('reason').notNull(),
    /** The shared actor's or genre's name, for "Cùng diễn viên Trấn Thành"; '' when the reason names none. */
    reasonName: text('reason_name').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.filmId, t.rank] })],
);

/** When each film's related list was last computed: the job refreshes the never computed first, then the oldest. */
export const filmRelatedState = sqliteTable(
  'film_related_state',
  {
    filmId: integer('film_id')
      .primaryKey()
      .references(() => films.id, { onDelete: 'cascade' }),
    refreshedAt: integer('refreshed_at').notNull(),
  },
  (t) => [index('film_related_state_age').on(t.refreshedAt)],
);

/** Viewers per film and day, with the film's category, kept by a trigger on plays: the Top 10 walks (day, category, plays). */
export const playCounts = sqliteTable(
  'play_counts',
  {
    day: integer('day').notNull(),
    filmId: integer('film_id').notNull(),
    categoryId: integer('category_id').notNull(),
    plays: integer('plays').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.filmId] }), index('play_counts_rank').on(t.day, t.categoryId, t.plays, t.filmId)],
);

/** One row per recorded view; trending by day/week/month aggregates these. */
export const viewEvents = sqliteTable(
  'view_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    viewedAt: integer('viewed_at').notNull(),
  },
  (t) => [index('view_events_time_film').on(t.viewedAt, t.filmId)],
);

/**
 * Views per film per hour (hour = viewed_at / 3,600,000, a UTC hour; Asia/Ho_Chi_Minh is UTC+7, a whole
 * number of hours, so its hours are the same buckets). Filled by a trigger on view_events and pruned past
 * the month window (drizzle/0004_trending_rollup.sql, docs/decisions/0607-trending-and-counts.md).
 * Derived data without foreign keys: the films delete trigger removes a film's rows.
 */
export const filmViewsHourly = sqliteTable(
  'film_views_hourly',
  {
    hour: integer('hour').notNull(),
    filmId: integer('film_id').notNull(),
    views: integer('views').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.filmId] }), index('film_views_hourly_film').on(t.filmId, t.hour)],
);

/** The trending windows and the first hour each one counts: the scheduler moves since_hour forward. */
export const trendingWindows = sqliteTable('trending_windows', {
  name: text('name', { enum: ['day', 'week', 'month'] }).primaryKey(),
  hours: integer('hours').notNull(),
  sinceHour: integer('since_hour').notNull(),
});

/** Views per film since its window's since_hour, kept by the view_events trigger: the home walks (span, views). */
export const trendingViews = sqliteTable(
  'trending_views',
  {
    span: text('span', { enum: ['day', 'week', 'month'] }).notNull(),
    filmId: integer('film_id').notNull(),
    views: integer('views').notNull(),
    /** films.views, copied by triggers: the ties' order, so the (span, views, film_views, film_id) walk needs no sort. */
    filmViews: integer('film_views').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.span, t.filmId] }),
    index('trending_views_rank').on(t.span, t.views, t.filmViews, t.filmId),
    index('trending_views_film').on(t.filmId),
  ],
);

/**
 * Films per listing scope ('category:24', 'genre:7', 'country:3'), kept by triggers on films, film_genres
 * and film_countries so every writer (film writer, admin edits and deletes) keeps it right.
 */
export const listingCounts = sqliteTable('listing_counts', {
  scope: text('scope').primaryKey(),
  films: integer('films').notNull(),
});

/**
 * Films per combination of listing facets, 'g<genre>:k<country>:c<category>:y<year>' with any part empty
 * ('g7:k:c:y2020' is genre 7 in 2020), kept by triggers on films, film_genres and film_countries
 * (drizzle/0005_listing_facet_counts.sql): the total of a filtered listing is one row (docs/decisions/0608).
 */
export const listingFacetCounts = sqliteTable('listing_facet_counts', {
  facets: text('facets').primaryKey(),
  films: integer('films').notNull(),
});

export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Null once the member is erased: the order is kept 10 years without the person (docs/decisions/1041). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    plan: text('plan', { enum: ['VIP1', 'VIP2'] }).notNull(),
    months: integer('months').notNull(),
    /** True amount in VND (VNPay's vnp_Amount is this x 100). */
    amount: integer('amount').notNull(),
    gateway: text('gateway', { enum: ['vnpay', 'momo', 'bank_transfer'] }).notNull(),
    /** Our order reference sent to the gateway; unique so a callback maps to one payment. */
    txnRef: text('txn_ref').notNull().unique(),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    providerTxnId: text('provider_txn_id'),
    providerPayload: text('provider_payload'),
    createdAt: createdAt(),
    paidAt: integer('paid_at'),
    /** The admin who confirmed a bank transfer (paid_at is when). */
    confirmedBy: integer('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as written: the admin's account may be deleted later. */
    confirmedByEmail: text('confirmed_by_email'),
    /** Bank transfers only: the short code the payer writes as the transfer note (docs/decisions/0403). */
    paymentCode: text('payment_code').unique(),
    /**
     * What the gateway sent that decided the order, as it arrived (VNPay's IPN parameters, a querydr or MoMo
     * query answer from the reconciliation job), as bank_transactions.raw keeps SePay's (docs/decisions/1051).
     */
    gatewayRaw: text('gateway_raw'),
  },
  (t) => [index('payments_user').on(t.userId), index('payments_status_created').on(t.status, t.createdAt)],
);

/**
 * Every bank notification (SePay webhook), stored raw before it is processed (docs/decisions/0403):
 * `provider_id` (SePay's `id`) is unique, so a retried or concurrent duplicate stores and credits nothing.
 * status: received (stored, not yet decided), matched (paid an order), unmatched ("Giao dịch chưa khớp"),
 * ignored (money out, another account), attached / dismissed (an admin resolved an unmatched one).
 */
export const bankTransactions = sqliteTable(
  'bank_transactions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    providerId: text('provider_id').notNull().unique(),
    gateway: text('gateway').notNull(),
    transactionDate: text('transaction_date').notNull(),
    accountNumber: text('account_number').notNull(),
    code: text('code'),
    content: text('content').notNull(),
    transferType: text('transfer_type', { enum: ['in', 'out'] }).notNull(),
    transferAmount: integer('transfer_amount').notNull(),
    referenceCode: text('reference_code').notNull(),
    /** The notification's JSON body as it arrived. */
    raw: text('raw').notNull(),
    status: text('status', { enum: ['received', 'matched', 'unmatched', 'ignored', 'attached', 'dismissed'] })
      .notNull()
      .default('received'),
    /** Why it is unmatched or ignored (no_code, unknown_code, amount_mismatch, order_not_pending, money_out, other_account). */
    reason: text('reason'),
    /** The payment code found in the note, if any. */
    matchedCode: text('matched_code'),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    receivedAt: integer('received_at').notNull(),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedByEmail: text('resolved_by_email'),
    resolvedAt: integer('resolved_at'),
    /** An admin's reason for dismissing it. */
    resolution: text('resolution'),
  },
  (t) => [index('bank_transactions_status_received').on(t.status, t.receivedAt)],
);

export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Null once the member is erased (docs/decisions/1041). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    plan: text('plan', { enum: ['VIP1', 'VIP2'] }).notNull(),
    paymentId: integer('payment_id').references(() => payments.id),
    startsAt: integer('starts_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('subscriptions_user_expires').on(t.userId, t.expiresAt)],
);

export const crawlRuns = sqliteTable(
  'crawl_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    source: text('source').notNull(),
    trigger: text('trigger', { enum: ['cli', 'admin', 'schedule', 'start', 'light'] }).notNull(),
    /** JSON: { pages?: [from, to], lists?: string[], force?: boolean }. */
    params: text('params').notNull().default('{}'),
    status: text('status', { enum: ['running', 'done', 'failed'] })
      .notNull()
      .default('running'),
    /** JSON cursor of completed work so a crashed run can be resumed. */
    progress: text('progress').notNull().default('{}'),
    pagesDone: integer('pages_done').notNull().default(0),
    filmsNew: integer('films_new').notNull().default(0),
    filmsUpdated: integer('films_updated').notNull().default(0),
    filmsSkipped: integer('films_skipped').notNull().default(0),
    filmsFailed: integer('films_failed').notNull().default(0),
    /** Films of the source that joined a film already in the catalogue (another source's): one film, both sources' servers. */
    filmsMerged: integer('films_merged').notNull().default(0),
    error: text('error'),
    startedAt: integer('started_at').notNull(),
    heartbeatAt: integer('heartbeat_at').notNull(),
    finishedAt: integer('finished_at'),
    /** The registered source crawled (services/sources/registry.ts); null for runs older than the registry. */
    sourceId: integer('source_id'),
    /** The schedule that started it (one run per source): the schedule is settled when all its runs end. */
    scheduleId: integer('schedule_id'),
  },
  (t) => [index('crawl_runs_status').on(t.status, t.source), index('crawl_runs_schedule').on(t.scheduleId)],
);

export const crawlSchedules = sqliteTable(
  'crawl_schedules',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Spec fields: crawl_date 'YYYY-MM-DD', crawl_time 'HH:mm' (Asia/Ho_Chi_Minh), run_at derived. */
    crawlDate: text('crawl_date').notNull(),
    crawlTime: text('crawl_time').notNull(),
    runAt: integer('run_at').notNull(),
    /** JSON array of category names (spec's 27 crawl categories). */
    categories: text('categories').notNull(),
    /** Spec: 1 = not yet run; anything else = completed (2 done, 3 failed). */
    status: integer('status').notNull().default(1),
    crawlRunId: integer('crawl_run_id').references(() => crawlRuns.id),
    /** One source to crawl; null: every enabled source, in priority order. */
    sourceId: integer('source_id'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('crawl_schedules_due').on(t.status, t.runAt)],
);

export const errorReports = sqliteTable(
  'error_reports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    episode: integer('episode'),
    serverName: text('server_name'),
    reason: text('reason').notNull(),
    message: text('message').notNull().default(''),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    resolvedAt: integer('resolved_at'),
  },
  (t) => [index('error_reports_film').on(t.filmId)],
);

/** Fixed-window counters for rate limits; in the database so limits hold across Worker isolates. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: integer('window_start').notNull(),
});

/** Every admin write (issue 9): who did what to which target, with the state before and after. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as written: the actor's account may be deleted later. */
    actorEmail: text('actor_email').notNull().default(''),
    /** 'user.roles', 'film.create', 'film.delete', 'crawl.start', 'schedule.create', 'settings.update'… */
    action: text('action').notNull(),
    target: text('target').notNull().default(''),
    /** JSON snapshots; null when there is no before (create) or after (delete). */
    before: text('before'),
    after: text('after'),
    createdAt: createdAt(),
    /** Set once when an admin undoes this entry (worker/services/admin/audit-undo.ts); null while it stands. */
    undoneAt: integer('undone_at'),
    /** On the entry an undo wrote: the id of the entry it undid. */
    undoOf: integer('undo_of'),
  },
  (t) => [index('audit_log_created').on(t.createdAt), index('audit_log_action').on(t.action, t.createdAt)],
);

/**
 * Each time a member accepted a version of the privacy policy (docs/decisions/1050): at sign-up (form or a first
 * Google sign-in) or when a new version is shown. Rows are only added, so the record proves every consent given.
 */
export const consentRecords = sqliteTable(
  'consent_records',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    policyVersion: text('policy_version').notNull(),
    acceptedAt: integer('accepted_at').notNull(),
    /** How it was given: 'sign_up' (the form's box), 'google_sign_up' (the box before a first Google sign-in), 'prompt' (a new version). */
    method: text('method', { enum: ['sign_up', 'google_sign_up', 'prompt'] }).notNull(),
  },
  (t) => [index('consent_records_user').on(t.userId, t.acceptedAt)],
);

/**
 * A data subject's request sent through the privacy page's form (correct, restrict, object, withdraw consent, other):
 * the back office acknowledges it within 2 working days and settles it before the legal deadline (docs/decisions/1052).
 */
export const privacyRequests = sqliteTable(
  'privacy_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The signed-in member who sent it; null when sent signed out (by email). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    kind: text('kind', { enum: ['correct', 'restrict', 'object', 'withdraw', 'other'] }).notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: ['new', 'acknowledged', 'done'] })
      .notNull()
      .default('new'),
    createdAt: integer('created_at').notNull(),
    /** 2 working days after it arrived (weekends skipped). */
    acknowledgeBy: integer('acknowledge_by').notNull(),
    /** The legal deadline to settle it. */
    dueAt: integer('due_at').notNull(),
    acknowledgedAt: integer('acknowledged_at'),
    doneAt: integer('done_at'),
  },
  (t) => [index('privacy_requests_status_created').on(t.status, t.createdAt)],
);

/**
 * Films an admin deleted (docs/decisions/0700-deleted-films-stay-deleted.md): every crawl skips a source key
 * listed here, and "Khôi phục" writes the film back from its snapshot and removes the row.
 */
export const deletedFilms = sqliteTable(
  'deleted_films',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The film's source key; null for a film added by hand (nothing to keep out, still restorable). */
    sourceKey: text('source_key').unique(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    /** JSON: the film writer's input that rebuilds the film (fields, taxonomy slugs, episodes, authors). */
    snapshot: text('snapshot').notNull(),
    deletedBy: integer('deleted_by').references(() => users.id, { onDelete: 'set null' }),
    deletedByEmail: text('deleted_by_email').notNull().default(''),
    deletedAt: integer('deleted_at').notNull(),
    /** Every source key of the film (JSON array) and its identity: no source brings it back (docs/decisions/0104). */
    sourceKeys: text('source_keys').notNull().default('[]'),
    tmdbType: text('tmdb_type', { enum: ['movie', 'tv'] }),
    tmdbId: text('tmdb_id'),
    tmdbSeason: integer('tmdb_season'),
    imdbId: text('imdb_id'),
    originKey: text('origin_key'),
    year: integer('year'),
    kind: text('kind', { enum: ['single', 'series'] }),
  },
  (t) => [index('deleted_films_deleted_at').on(t.deletedAt)],
);

/** Operator-editable site settings (hotline, bank details, crawl source); env values are the defaults. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/** A member's list ("Tủ phim"): one row per (member, film); `notify` asks for new-episode pushes. */
export const watchlist = sqliteTable(
  'watchlist',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    notify: integer('notify', { mode: 'boolean' }).notNull().default(true),
    addedAt: integer('added_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.filmId] }),
    index('watchlist_user_added').on(t.userId, t.addedAt),
    index('watchlist_film').on(t.filmId),
  ],
);

/** Where a member is in each episode; the newest client `updatedAt` wins (docs/decisions/0800). */
export const watchProgress = sqliteTable(
  'watch_progress',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    episode: integer('episode').notNull(),
    /** Seconds. */
    position: real('position').notNull(),
    duration: real('duration').notNull(),
    /** The client's clock (ms), capped at the server's when written. */
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.filmId, t.episode] }),
    index('watch_progress_user_updated').on(t.userId, t.updatedAt),
    index('watch_progress_updated').on(t.updatedAt),
  ],
);

/** Per-member library bookkeeping: when the list page was last opened ("mới" since then). */
export const libraryState = sqliteTable('library_state', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  listSeenAt: integer('list_seen_at').notNull(),
});

/** A browser's Web Push subscription (PushSubscription.toJSON()). */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user').on(t.userId)],
);

/**
 * An episode number a film gained after it was first written (the film writer records it in the write's
 * transaction). The planner (services/push/chunks.ts) walks each release's subscribers in id order and, in one
 * transaction, advances `cursor` with a conditional update and writes them as push_chunks, so no (subscription,
 * episode) is put in two chunks; `doneAt` is set once every follower is in a chunk.
 */
export const episodeReleases = sqliteTable(
  'episode_releases',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    episode: integer('episode').notNull(),
    createdAt: integer('created_at').notNull(),
    /** Highest push subscription id already put in a chunk. */
    cursor: integer('cursor').notNull().default(0),
    doneAt: integer('done_at'),
  },
  (t) => [uniqueIndex('episode_releases_film_episode').on(t.filmId, t.episode), index('episode_releases_done').on(t.doneAt)],
);

/**
 * A release's followers in chunks of at most 100 push subscriptions (services/push/chunks.ts, docs/decisions/1030):
 * a queue message on Workers, a leased row drained by a pool on Node; the row is the truth on both. `pending`
 * holds the subscriptions not yet settled (delivered, gone or given up); a sender removes each one as its send
 * settles, so a run after a crash (its lease ran out) sends only what was not yet recorded.
 */
export const pushChunks = sqliteTable(
  'push_chunks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    releaseId: integer('release_id')
      .notNull()
      .references(() => episodeReleases.id, { onDelete: 'cascade' }),
    /** JSON array of push subscription ids still to send. */
    pending: text('pending').notNull(),
    size: integer('size').notNull(),
    status: text('status', { enum: ['pending', 'sending', 'done'] })
      .notNull()
      .default('pending'),
    /** Claims so far; a sender's writes count only while the row still carries its claim's number. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull().default(0),
    /** While 'sending': when a sender that stopped half-way (a crash, an isolate cut off) is considered gone. */
    leaseUntil: integer('lease_until'),
    sent: integer('sent').notNull().default(0),
    gone: integer('gone').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    createdAt: createdAt(),
    doneAt: integer('done_at'),
  },
  (t) => [index('push_chunks_due').on(t.status, t.nextAttemptAt), index('push_chunks_release').on(t.releaseId)],
);

// ---------------------------------------------------------------------------------------------
// One film, every source (issue 32, docs/decisions/0104-one-film-every-source.md)

/**
 * The sources the crawler reads, as an operator manages them ("Nguồn phim"): family, base URL, priority (lower
 * first: the film's own fields follow it, and its servers come first), enabled. A source that fails crawls in a
 * row is backed off (a growing delay) and marked down ("Không phản hồi"): its servers go to the end of every
 * film's server order until it answers again.
 */
export const sources = sqliteTable('sources', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** The base URL crawled ('https://phimapi.com', 'https://ophim1.com/v1/api'): no trailing slash. */
  baseUrl: text('base_url').notNull().unique(),
  /** The label viewers see beside its servers ('Vietsub #1 · KKPhim'). */
  name: text('name').notNull().unique(),
  /** ophim (legacy), ophim-v1, kkphim, kkphim-v1; null until detected from its responses. */
  family: text('family', { enum: ['ophim', 'ophim-v1', 'kkphim', 'kkphim-v1'] }),
  /** The family was given by an operator (configuration or the admin page), not detected. */
  familyGiven: integer('family_given', { mode: 'boolean' }).notNull().default(false),
  priority: integer('priority').notNull().default(100),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  /** Crawls in a row that failed; reset by any crawl or check that succeeds. */
  failures: integer('failures').notNull().default(0),
  /** Backed off: "Không phản hồi". Its servers go last; crawls skip it until backoff_until. */
  down: integer('down', { mode: 'boolean' }).notNull().default(false),
  backoffUntil: integer('backoff_until'),
  lastCrawlAt: integer('last_crawl_at'),
  lastOkAt: integer('last_ok_at'),
  lastError: text('last_error'),
  /** The last check of whether it answers (the admin page, the scheduler's retry of a down source). */
  checkedAt: integer('checked_at'),
  answering: integer('answering', { mode: 'boolean' }),
  createdAt: createdAt(),
});

/**
 * One row per film of a source (the source's item): which film it feeds, the checksum of what was imported, the
 * external ids this source gives, and the label its servers carry on that film.
 */
export const filmSources = sqliteTable(
  'film_sources',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    sourceId: integer('source_id').references(() => sources.id, { onDelete: 'set null' }),
    /** '{origin}:{_id or slug}' (the source's own path before ':' when it has one), as films.source_key was. */
    sourceKey: text('source_key').notNull().unique(),
    /** The film's slug at the source (its detail's path). */
    sourceSlug: text('source_slug').notNull().default(''),
    /** What its servers are named after on this film: the source's name ('KKPhim', 'KKPhim (2)'). */
    label: text('label').notNull().default(''),
    checksum: text('checksum'),
    /** The source list's `modified.time` when this item was last crawled: the light crawl skips an unmoved item's detail. */
    sourceModified: integer('source_modified'),
    tmdbType: text('tmdb_type', { enum: ['movie', 'tv'] }),
    tmdbId: text('tmdb_id'),
    tmdbSeason: integer('tmdb_season'),
    imdbId: text('imdb_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('film_sources_film').on(t.filmId), index('film_sources_source').on(t.sourceId)],
);

/** A merged-away film's slug: it answers 301 to the kept film (page and API), and no new film takes it. */
export const filmAliases = sqliteTable(
  'film_aliases',
  {
    slug: text('slug').primaryKey(),
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('film_aliases_film').on(t.filmId)],
);

/**
 * Two films that may be one ("Gộp phim"): a crawl's doubt, or an existing duplicate. film_a < film_b. An admin
 * merges them (status merged) or says they differ (dismissed: never suggested again).
 */
export const mergeSuggestions = sqliteTable(
  'merge_suggestions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    filmA: integer('film_a')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    filmB: integer('film_b')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['open', 'merged', 'dismissed'] })
      .notNull()
      .default('open'),
    createdAt: integer('created_at').notNull(),
    resolvedAt: integer('resolved_at'),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('merge_suggestions_pair').on(t.filmA, t.filmB), index('merge_suggestions_status').on(t.status, t.createdAt)],
);

/**
 * What a crawl said that an admin should see (a source answering garbage, a film refused, a merge in doubt),
 * per run and source; kept a week (worker/scheduled.ts). The "errors in the last 24 h" of "Nguồn phim".
 */
export const crawlLog = sqliteTable(
  'crawl_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    runId: integer('run_id'),
    sourceId: integer('source_id'),
    level: text('level', { enum: ['error', 'doubt'] }).notNull(),
    message: text('message').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('crawl_log_source_at').on(t.sourceId, t.at), index('crawl_log_run').on(t.runId), index('crawl_log_at').on(t.at)],
);

export const filmsRelations = relations(films, ({ one, many }) => ({
  category: one(categories, { fields: [films.categoryId], references: [categories.id] }),
  episodes: many(episodes),
  genres: many(filmGenres),
  countries: many(filmCountries),
  comments: many(comments),
  ratings: many(ratings),
  sources: many(filmSources),
}));
export const episodesRelations = relations(episodes, ({ one }) => ({
  film: one(films, { fields: [episodes.filmId], references: [films.id] }),
  filmSource: one(filmSources, { fields: [episodes.filmSourceId], references: [filmSources.id] }),
}));
export const filmSourcesRelations = relations(filmSources, ({ one }) => ({
  film: one(films, { fields: [filmSources.filmId], references: [films.id] }),
  source: one(sources, { fields: [filmSources.sourceId], references: [sources.id] }),
}));
export const filmGenresRelations = relations(filmGenres, ({ one }) => ({
  film: one(films, { fields: [filmGenres.filmId], references: [films.id] }),
  genre: one(genres, { fields: [filmGenres.genreId], references: [genres.id] }),
}));
export const filmCountriesRelations = relations(filmCountries, ({ one }) => ({
  film: one(films, { fields: [filmCountries.filmId], references: [films.id] }),
  country: one(countries, { fields: [filmCountries.countryId], references: [countries.id] }),
}));
export const commentsRelations = relations(comments, ({ one }) => ({
  film: one(films, { fields: [comments.filmId], references: [films.id] }),
  user: one(users, { fields: [comments.userId], references: [users.id] }),
}));
export const ratingsRelations = relations(ratings, ({ one }) => ({
  film: one(films, { fields: [ratings.filmId], references: [films.id] }),
  user: one(users, { fields: [ratings.userId], references: [users.id] }),
}));
export const usersRelations = relations(users, ({ many }) => ({
  comments: many(comments),
  ratings: many(ratings),
  refreshTokens: many(refreshTokens),
  subscriptions: many(subscriptions),
}));

export type Film = typeof films.$inferSelect;
export type Episode = typeof episodes.$inferSelect;
export type User = typeof users.$inferSelect;

/**
 * What one device did around an episode's intro or credits (issue 40 §7, docs/decisions/1100): a skip run's start and
 * landing ('intro'), or where it left for the next episode ('credits'), on the ad-filtered timeline, per server. The
 * primary key keeps one report per device, episode, server and kind. `via`: 'seek' (the viewer's own seeks, the
 * only ones that place a segment), 'button' or 'auto' (a published segment used: a vote). `back`: the viewer sought
 * back right after the skip (a vote against).
 */
export const segmentReports = sqliteTable(
  'segment_reports',
  {
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    episode: integer('episode').notNull(),
    server: text('server').notNull(),
    kind: text('kind', { enum: ['intro', 'credits'] }).notNull(),
    device: text('device').notNull(),
    start: real('start').notNull(),
    /** Where the run's last seek left from: the latest moment the viewer saw and still skipped (= start for one drag). */
    before: real('before').notNull(),
    end: real('end').notNull(),
    duration: real('duration').notNull(),
    /** The run was equal steps (double taps, L presses): its landing lies anywhere within a step past the end. */
    stepped: integer('stepped', { mode: 'boolean' }).notNull().default(false),
    via: text('via', { enum: ['seek', 'button', 'auto'] }).notNull(),
    back: integer('back', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.filmId, t.episode, t.server, t.kind, t.device] })],
);

/**
 * An episode's intro or credits as the player shows it (issue 40 §7): learned from segment_reports, or set by an admin
 * (`locked`: the reports no longer move or hide it). `hidden`: too many viewers sought back after skipping it, or an
 * admin hid it. For credits only `start` matters (`end` = the episode's duration as reported).
 */
export const segments = sqliteTable(
  'segments',
  {
    filmId: integer('film_id')
      .notNull()
      .references(() => films.id, { onDelete: 'cascade' }),
    episode: integer('episode').notNull(),
    server: text('server').notNull(),
    kind: text('kind', { enum: ['intro', 'credits'] }).notNull(),
    start: real('start').notNull(),
    end: real('end').notNull(),
    /** Devices whose reports placed it (0 for an admin's). */
    devices: integer('devices').notNull().default(0),
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    locked: integer('locked', { mode: 'boolean' }).notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.filmId, t.episode, t.server, t.kind] })],
);
