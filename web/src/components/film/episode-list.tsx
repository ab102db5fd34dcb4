import { Link } from '@tanstack/react-router';
import type { FilmDetail } from '../../../../worker/schemas/catalogue';
import { intendToPlay } from '../../lib/play-intent';
import { episodeMarkText } from '../../lib/resume-point';
import { useEpisodeMarks } from '../../lib/watch-history';

/**
 * Episodes grouped by server; the current one (on the watch page) is highlighted. A link is named by the
 * words it shows ('Full', 'Tập 3': WCAG 2.5.3, a voice-control user says them), its server following in a
 * visually hidden span so a screen reader's list of links tells the servers apart. A watched episode carries ✓, a
 * partly watched one a thin bar, each said in words after the server ("Đã xem", "Đã xem 40 %"): this device's plays
 * and a member's other devices' (lib/watch-history.ts, useEpisodeMarks).
 */
export function EpisodeList({
  film,
  current,
  currentServer,
  headingLevel = 3,
}: {
  film: FilmDetail;
  current?: number;
  currentServer?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = `h${headingLevel}` as const;
  const marks = useEpisodeMarks(film.slug);
  return (
    <div className="episode-servers">
      {film.servers
        .filter((s) => s.linkfilms.length > 0)
        .map((server) => (
          <section key={server.server_name} className="episode-server">
            <Heading className="episode-server-name">
              {server.server_name}
              {/* A source that stopped answering (issue 32): its servers come last and say so. */}
              {server.source?.down && <span className="server-down"> · Không phản hồi</span>}
            </Heading>
            <ul className="episode-list">
              {server.linkfilms.map((ep) => {
                const isCurrent = ep.episode === current && (!currentServer || currentServer === server.server_name);
                const mark = marks.get(ep.episode);
                return (
                  <li key={ep.id}>
                    <Link
                      to="/xem-phim/$slug/$episode"
                      params={{ slug: film.slug, episode: `tap-${ep.episode}` }}
                      search={{ server: server.server_name }}
                      className={`episode-link ${isCurrent ? 'current' : ''}`}
                      aria-current={isCurrent ? 'page' : undefined}
                      // An episode tapped means "play it": the watch page plays it by itself (lib/play-intent.ts).
                      onClick={() => intendToPlay(film.slug, ep.episode)}
                    >
                      {ep.name && !/^\d+$/.test(ep.name) ? ep.name : `Tập ${ep.episode}`}
                      {mark?.watched && (
                        <span className="episode-check" aria-hidden="true">
                          ✓
                        </span>
                      )}
                      {mark && !mark.watched && (
                        <span className="episode-bar" aria-hidden="true">
                          <span style={{ width: `${Math.max(4, Math.round(mark.share * 100))}%` }} />
                        </span>
                      )}
                      <span className="visually-hidden">
                        {' '}
                        ({server.server_name}){mark ? ` · ${episodeMarkText(mark)}` : ''}
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
    </div>
  );
}
