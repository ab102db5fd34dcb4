import { Link } from '@tanstack/react-router';
import type { FilmDetail } from '../../../../worker/schemas/catalogue';
import { intendToPlay } from '../../lib/play-intent';

/**
 * Episodes grouped by server; the current one (on the watch page) is highlighted. A link is named by the
 * words it shows ('Full', 'Tập 3': WCAG 2.5.3, a voice-control user says them), its server following in a
 * visually hidden span so a screen reader's list of links tells the servers apart.
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
                      <span className="visually-hidden"> ({server.server_name})</span>
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
