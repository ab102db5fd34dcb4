import { Link } from '@tanstack/react-router';
import type { FilmDetail } from '../../../../worker/schemas/catalogue';

/** Episodes grouped by server; the current one (on the watch page) is highlighted. */
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
            <Heading className="episode-server-name">{server.server_name}</Heading>
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
                      aria-label={`Tập ${ep.episode} (${server.server_name})`}
                    >
                      {ep.name && !/^\d+$/.test(ep.name) ? ep.name : `Tập ${ep.episode}`}
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
