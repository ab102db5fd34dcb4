import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import type { AdminEpisodeWithAuthors, AdminFilm, FilmAuthor } from '../../../../../worker/schemas/admin';
import { COUNTRIES } from '../../../../../worker/schemas/taxonomy';
import { ApiError } from '../../../lib/api-client';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { deleteEpisode, editEpisode, editFilm, filmEditorQuery, filmEpisodesQuery } from '../api/films-api';
import { isHttpUrl } from '../http-url';
import { AdminHeading } from './admin-layout';
import {
  CategorySelect,
  DescriptionAndVip,
  type FilmFieldValues,
  FilmTextInputs,
  filmFieldsBody,
  GenreCheckboxes,
  NameCheckboxes,
  useFilmForm,
  validateFilmFields,
} from './film-fields';
import { invalidProps } from './form-field';
import { SegmentsSection } from './segments-section';

type Form = FilmFieldValues & { quocgia: string[] };

const formOf = (f: AdminFilm): Form => ({
  title: f.title,
  nameenglish: f.nameenglish,
  hinhanh: f.hinhanh,
  trangthai: f.trangthai,
  sotap: f.sotap,
  thoiluong: f.thoiluong,
  namphathanh: f.namphathanh == null ? '' : String(f.namphathanh),
  chatluong: f.chatluong,
  ngonngu: f.ngonngu,
  daodien: f.daodien,
  dienvien: f.dienvien,
  descripts: f.descripts,
  theloai: f.theloai,
  quocgia: f.quocgia,
  category_id: String(f.category_id),
  VIP1: f.VIP1 === 1,
});

const authorText = (who: FilmAuthor | null) => (who ? who.email || `#${who.id}` : 'trình thu thập');

/**
 * /admin/products/edit?film={slug} (admin): the whole film — description, poster, genres, countries, cast,
 * director, category, status, quality, language, year, VIP flag — and its episodes per server, each link
 * edited or deleted in place.
 */
export function FilmEditorPage({ slug }: { slug: string }) {
  usePageMeta({ title: 'Sửa phim | Quản trị', robots: 'noindex' });
  const film = useQuery(filmEditorQuery(slug));
  if (film.isError) {
    return (
      <section>
        <AdminHeading title="Sửa phim" />
        <p className="field-error" role="alert">
          Không tải được phim: {messageOf(film.error)}
        </p>
        <Link to="/admin/products">Về danh sách phim</Link>
      </section>
    );
  }
  if (!film.data) return <p className="muted">Loading...</p>;
  return (
    <section>
      <AdminHeading title={`Sửa phim: ${film.data.title}`}>
        <Link to="/$slug" params={{ slug }} target="_blank" className="btn btn-ghost btn-sm">
          Xem trang phim
        </Link>
        <Link to="/admin/products/add_episode" search={{ film: slug }} className="btn btn-ghost btn-sm">
          Thêm tập
        </Link>
      </AdminHeading>
      <p className="muted" style={{ marginBottom: 12 }}>
        Người thêm: {authorText(film.data.createdBy)} · Sửa lần cuối: {authorText(film.data.updatedBy)}
      </p>
      <FilmForm key={JSON.stringify(film.data)} film={film.data} />
      <EpisodesEditor slug={slug} />
      <SegmentsSection slug={slug} />
    </section>
  );
}

function FilmForm({ film }: { film: AdminFilm }) {
  const queryClient = useQueryClient();
  const { form, setForm, errors, setErrors, patch } = useFilmForm<Form>(() => formOf(film));
  const save = useMutation({
    mutationFn: (f: Form) => editFilm({ slug: film.slug, ...filmFieldsBody(f), quocgia: f.quocgia }),
    onSuccess: (res) => {
      toast.success(res.message);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'film', film.slug] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'films'] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400) {
        const [field, ...rest] = error.message.replace(/^data\./, '').split(': ');
        if (field && field in form) setErrors({ [field]: rest.join(': ') });
      }
      toast.error('Không lưu được phim', { description: messageOf(error) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateFilmFields(form);
    setErrors(found);
    if (Object.keys(found).length) {
      document.getElementById(`edit-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    save.mutate(form);
  };

  return (
    <form className="admin-card admin-form" noValidate onSubmit={submit} aria-label="Sửa phim">
      <FilmTextInputs idPrefix="edit" form={form} errors={errors} patch={patch} />
      <CategorySelect idPrefix="edit" form={form} errors={errors} patch={patch} />
      <GenreCheckboxes form={form} patch={patch} />
      <NameCheckboxes
        legend="Quốc gia"
        items={COUNTRIES}
        checked={form.quocgia}
        onToggle={(name, on) => patch({ quocgia: on ? [...form.quocgia, name] : form.quocgia.filter((n) => n !== name) })}
      />
      <DescriptionAndVip idPrefix="edit" form={form} errors={errors} patch={patch} />
      <div className="admin-form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Đang lưu…' : 'Lưu phim'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setForm(formOf(film))}>
          Hoàn tác
        </button>
      </div>
    </form>
  );
}

/** The film's episodes grouped by server; each link, number and server edited in place, or deleted. */
function EpisodesEditor({ slug }: { slug: string }) {
  const episodes = useQuery(filmEpisodesQuery(slug));
  const servers = new Map<string, AdminEpisodeWithAuthors[]>();
  for (const ep of episodes.data?.data ?? []) servers.set(ep.server, [...(servers.get(ep.server) ?? []), ep]);
  return (
    <div className="admin-card" style={{ marginTop: 16 }}>
      <h2>Tập phim theo máy chủ</h2>
      {episodes.isPending && <p className="muted">Loading...</p>}
      {episodes.isError && <p className="field-error">{messageOf(episodes.error)}</p>}
      {episodes.data && servers.size === 0 && <p className="muted">Phim chưa có tập nào.</p>}
      {[...servers].map(([server, list]) => (
        <div key={server} style={{ marginTop: 12 }}>
          <h3>Máy chủ: {server}</h3>
          <div className="admin-table-wrap">
            <table className="admin-table" aria-label={`Tập trên máy chủ ${server}`}>
              <thead>
                <tr>
                  <th>Tập</th>
                  <th>Máy chủ</th>
                  <th>Link</th>
                  <th>Người sửa</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.map((ep) => (
                  <EpisodeRow key={`${ep.id}-${ep.episode}-${ep.server}-${ep.linkfilm}`} slug={slug} episode={ep} />
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </div>
  );
}

function EpisodeRow({ slug, episode }: { slug: string; episode: AdminEpisodeWithAuthors }) {
  const queryClient = useQueryClient();
  const [number, setNumber] = useState(String(episode.episode));
  const [server, setServer] = useState(episode.server);
  const [link, setLink] = useState(episode.linkfilm);
  const [error, setError] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'episodes', slug] });
  const save = useMutation({
    mutationFn: () => editEpisode({ id: episode.id, episode: Number(number), server: server.trim(), linkfilm: link.trim() }),
    onSuccess: (res) => {
      toast.success(res.message);
      refresh();
    },
    onError: (err) => toast.error('Không lưu được tập phim', { description: messageOf(err) }),
  });
  const remove = useMutation({
    mutationFn: () => deleteEpisode(episode.id),
    onSuccess: (res) => {
      toast.success(res.message);
      refresh();
    },
    onError: (err) => toast.error('Không xoá được tập phim', { description: messageOf(err) }),
  });
  const changed = number !== String(episode.episode) || server !== episode.server || link !== episode.linkfilm;
  const label = `tập ${episode.episode} (${episode.server})`;
  return (
    <tr data-episode={episode.id}>
      <td>
        <input
          className="admin-input"
          style={{ width: 70 }}
          inputMode="numeric"
          aria-label={`Số của ${label}`}
          value={number}
          onChange={(e) => setNumber(e.target.value)}
        />
      </td>
      <td>
        <input
          className="admin-input"
          style={{ width: 130 }}
          aria-label={`Máy chủ của ${label}`}
          value={server}
          onChange={(e) => setServer(e.target.value)}
        />
      </td>
      <td>
        <input
          className="admin-input"
          style={{ width: '100%', minWidth: 260 }}
          type="url"
          aria-label={`Link của ${label}`}
          value={link}
          onChange={(e) => setLink(e.target.value)}
          {...invalidProps(`episode-${episode.id}`, error || undefined)}
        />
        {error && (
          <p className="field-error" id={`episode-${episode.id}-error`}>
            {error}
          </p>
        )}
      </td>
      <td className="muted">{authorText(episode.updatedBy ?? episode.createdBy)}</td>
      <td style={{ whiteSpace: 'nowrap' }}>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={!changed || save.isPending}
          onClick={() => {
            const bad =
              !/^\d+$/.test(number) || Number(number) < 1
                ? 'Số tập phải là số nguyên từ 1.'
                : !isHttpUrl(link.trim())
                  ? 'Link phải là một địa chỉ http(s).'
                  : '';
            setError(bad);
            if (!bad) save.mutate();
          }}
        >
          Lưu
        </button>{' '}
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Xoá ${label}?`)) remove.mutate();
          }}
        >
          Xoá
        </button>
      </td>
    </tr>
  );
}
