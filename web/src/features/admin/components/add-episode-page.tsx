import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { ADMIN_TEXTS, DEFAULT_SERVER_NAME } from '../../../../../worker/schemas/admin';
import { ApiError } from '../../../lib/api-client';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { useDebounced } from '../../../lib/use-debounced';
import { messageOf } from '../api/admin-request';
import { createEpisode, filmEpisodesQuery, filmSearchQuery } from '../api/films-api';
import { AdminHeading } from './admin-layout';
import { FormField, invalidProps } from './form-field';
import { isHttpUrl } from '../http-url';
import { canUse } from '../access';
import { useSession } from '../../../lib/session';

interface Picked {
  slug: string;
  title: string;
}

type Errors = Partial<Record<'film' | 'episode' | 'linkfilm' | 'server', string>>;

/** Picks a film by searching the catalogue on the server (never a select of every film). */
function FilmPicker({
  picked,
  onPick,
  error,
  ownOnly,
}: {
  picked: Picked | null;
  onPick: (film: Picked | null) => void;
  error?: string;
  /** A VIP2 uploader who is not an admin: only the films they added. */
  ownOnly: boolean;
}) {
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);
  const results = useQuery(filmSearchQuery(q, ownOnly));
  const listId = useId();
  if (picked) {
    return (
      <div className="chip-list">
        <span className="chip">
          {picked.title}
          <button type="button" aria-label={`Bỏ chọn ${picked.title}`} onClick={() => onPick(null)}>
            ×
          </button>
        </span>
      </div>
    );
  }
  return (
    <div>
      <input
        id="episode-film"
        type="search"
        className="admin-input"
        style={{ width: '100%' }}
        placeholder={ownOnly ? 'Gõ tên phim bạn đã đăng…' : 'Gõ tên phim để tìm…'}
        autoComplete="off"
        aria-controls={listId}
        value={text}
        onChange={(e) => setText(e.target.value)}
        {...invalidProps('episode-film', error)}
      />
      {(q || ownOnly) && (
        <ul id={listId} className="picker-results" aria-label="Kết quả tìm phim">
          {results.data?.data.map((f) => (
            <li key={f.slug}>
              <button type="button" onClick={() => onPick({ slug: f.slug, title: f.title })}>
                <strong>{f.title}</strong> <span className="muted">{[f.nameenglish, f.namphathanh].filter(Boolean).join(' · ')}</span>
              </button>
            </li>
          ))}
          {results.data && results.data.data.length === 0 && (
            <li className="muted">
              {ownOnly ? 'Bạn chỉ thêm được tập cho phim do bạn đăng: không có phim nào khớp.' : 'Không tìm thấy phim nào.'}
            </li>
          )}
          {results.isFetching && !results.data && <li className="muted">Loading...</li>}
        </ul>
      )}
    </div>
  );
}

/** /admin/products/add_episode (admin or VIP2): film picked by search, episode number, link, server. */
export function AddEpisodePage({ initialFilm }: { initialFilm?: string }) {
  usePageMeta({ title: 'Thêm tập phim | Quản trị', robots: 'noindex' });
  const isAdmin = canUse(useSession(), 'adminOnly');
  const queryClient = useQueryClient();
  const [film, setFilm] = useState<Picked | null>(initialFilm ? { slug: initialFilm, title: initialFilm } : null);
  const [episode, setEpisode] = useState('');
  const [linkfilm, setLinkfilm] = useState('');
  const [server, setServer] = useState(DEFAULT_SERVER_NAME);
  const [errors, setErrors] = useState<Errors>({});
  const episodes = useQuery(filmEpisodesQuery(film?.slug ?? ''));
  const filmTitle = episodes.data?.title ?? film?.title;

  const mutation = useMutation({
    mutationFn: () =>
      createEpisode({ selectedTitle: film?.slug ?? '', episode: Number(episode), linkfilm: linkfilm.trim(), server: server.trim() }),
    onSuccess: (res) => {
      // One accurate message: 'Thêm tập phim mới thành công', or 'Đã cập nhật link tập phim' for an existing episode.
      toast.success(res.message);
      setEpisode(String(res.episode.episode + 1));
      setLinkfilm('');
      void queryClient.invalidateQueries({ queryKey: ['admin', 'episodes', film?.slug] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        const [field, ...rest] = error.message.split(': ');
        const key = field === 'selectedTitle' ? 'film' : field;
        if (key === 'film' || key === 'episode' || key === 'linkfilm' || key === 'server') setErrors({ [key]: rest.join(': ') });
      }
      toast.error(ADMIN_TEXTS.addEpisodeFailed, { description: messageOf(error) });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Errors = {};
    if (!film) found.film = 'Vui lòng chọn phim.';
    if (!/^\d+$/.test(episode.trim()) || Number(episode) < 1) found.episode = 'Số tập phải là số nguyên từ 1 trở lên.';
    if (!isHttpUrl(linkfilm.trim())) found.linkfilm = 'Link phải là một địa chỉ http(s) (ví dụ .m3u8).';
    if (server.trim().length > 100) found.server = 'Tối đa 100 ký tự.';
    setErrors(found);
    if (Object.keys(found).length === 0) mutation.mutate();
  };

  return (
    <section>
      <AdminHeading title="Thêm tập phim" />
      <div className="two-cols">
        <form
          className="admin-card admin-form"
          style={{ gridTemplateColumns: '1fr' }}
          noValidate
          onSubmit={submit}
          aria-label="Thêm tập phim"
        >
          <FormField id="episode-film" label="Phim *" error={errors.film}>
            <FilmPicker
              picked={film && filmTitle ? { slug: film.slug, title: filmTitle } : null}
              onPick={(f) => {
                setFilm(f);
                setErrors((e) => ({ ...e, film: undefined }));
              }}
              error={errors.film}
              ownOnly={!isAdmin}
            />
          </FormField>
          <FormField id="episode-number" label="Tập số *" error={errors.episode}>
            <input
              id="episode-number"
              className="admin-input"
              inputMode="numeric"
              value={episode}
              onChange={(e) => setEpisode(e.target.value)}
              {...invalidProps('episode-number', errors.episode)}
            />
          </FormField>
          <FormField id="episode-link" label="Link phim *" error={errors.linkfilm}>
            <input
              id="episode-link"
              type="url"
              className="admin-input"
              placeholder="https://…/index.m3u8"
              value={linkfilm}
              onChange={(e) => setLinkfilm(e.target.value)}
              {...invalidProps('episode-link', errors.linkfilm)}
            />
          </FormField>
          <FormField id="episode-server" label="Máy chủ" error={errors.server}>
            <input
              id="episode-server"
              className="admin-input"
              value={server}
              onChange={(e) => setServer(e.target.value)}
              {...invalidProps('episode-server', errors.server)}
            />
          </FormField>
          <div className="admin-form-actions">
            <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
              {mutation.isPending ? 'Đang lưu…' : 'Thêm tập'}
            </button>
          </div>
        </form>
        <div className="admin-card">
          <h2>Các tập hiện có</h2>
          {!film && <p className="muted">Chọn một phim để xem các tập của phim.</p>}
          {film && episodes.isPending && <p className="muted">Loading...</p>}
          {film && episodes.isError && <p className="field-error">{messageOf(episodes.error)}</p>}
          {episodes.data && (
            <>
              <p style={{ marginBottom: 10 }}>
                <Link to="/$slug" params={{ slug: episodes.data.slug }} target="_blank">
                  {episodes.data.title}
                </Link>
              </p>
              {episodes.data.data.length === 0 ? (
                <p className="muted">Phim chưa có tập nào.</p>
              ) : (
                <div className="admin-table-wrap">
                  <table className="admin-table">
                    <thead>
                      <tr>
                        <th>Tập</th>
                        <th>Máy chủ</th>
                        <th>Link</th>
                      </tr>
                    </thead>
                    <tbody>
                      {episodes.data.data.map((ep) => (
                        <tr key={ep.id}>
                          <td className="num">{ep.episode}</td>
                          <td>{ep.server}</td>
                          <td style={{ overflowWrap: 'anywhere' }}>{ep.linkfilm}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
