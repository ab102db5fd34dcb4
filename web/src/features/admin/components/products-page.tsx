import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, type RowSelectionState, useReactTable } from '@tanstack/react-table';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { FilmCard } from '../../../../../worker/schemas/catalogue';
import { CATEGORIES } from '../../../../../worker/schemas/taxonomy';
import { formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { useDebounced } from '../../../lib/use-debounced';
import { messageOf } from '../api/admin-request';
import { adminFilmsQuery, deleteFilms, editFilm, type FilmEdit, setFilmVip1 } from '../api/films-api';
import { AdminHeading } from './admin-layout';
import { AdminPager } from './admin-pager';
import { DataTable } from './data-table';
import { usePatchListRow } from '../patch-list-rows';

const column = createColumnHelper<FilmCard>();
const CATEGORY_NAME = new Map<number, string>(CATEGORIES.map((c) => [c.id, c.name]));

interface Draft {
  title: string;
  nameenglish: string;
  namphathanh: string;
  trangthai: string;
  sotap: string;
  chatluong: string;
  category_id: number;
}

const draftOf = (f: FilmCard): Draft => ({
  title: f.title,
  nameenglish: f.nameenglish,
  namphathanh: f.namphathanh == null ? '' : String(f.namphathanh),
  trangthai: f.trangthai,
  sotap: f.sotap,
  chatluong: f.chatluong,
  category_id: f.category_id,
});

/** Changes one film in every cached page of the list, in place. */
/**
 * /admin/products (admin): 50 films per page from the server, filtered by title on the server, one
 * row editable at a time, the VIP1 flag flipped at once and saved (rolled back on failure), several
 * films deleted at once after a confirmation.
 */
export function ProductsPage({
  page,
  q,
  onSearch,
}: {
  page: number;
  q: string;
  onSearch: (search: { page?: number; q?: string }) => void;
}) {
  usePageMeta({ title: 'Phim | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const [text, setText] = useState(q);
  const debounced = useDebounced(text, 300);
  useEffect(() => {
    if (debounced.trim() !== q) onSearch({ q: debounced.trim() || undefined, page: undefined });
  }, [debounced, q, onSearch]);

  const films = useQuery(adminFilmsQuery({ page, q }));
  const patchRow = usePatchListRow<FilmCard, string>(['admin', 'films'], (f) => f.slug);
  const patchFilm = (slug: string, fields: Partial<FilmCard>) => patchRow(slug, (f) => ({ ...f, ...fields }));
  const [editing, setEditing] = useState<{ slug: string; draft: Draft } | null>(null);
  const [selection, setSelection] = useState<RowSelectionState>({});
  // A new page or filter starts with nothing selected and nothing being edited.
  const scopeKey = `${page}\n${q}`;
  const [scope, setScope] = useState(scopeKey);
  if (scope !== scopeKey) {
    setScope(scopeKey);
    setSelection({});
    setEditing(null);
  }

  // The flag flips in the same event as the click (display first, then saved); a failure puts it back.
  const vip1 = useMutation({
    mutationFn: ({ film, value }: { film: FilmCard; value: 0 | 1 }) => setFilmVip1(film.slug, value),
    onSuccess: (_res, { film, value }) => toast.success(`${film.title}: ${value ? 'chỉ dành cho VIP' : 'miễn phí'}`),
    onError: (error, { film }) => {
      patchFilm(film.slug, { VIP1: film.VIP1 });
      toast.error('Không lưu được VIP1', { description: messageOf(error) });
    },
  });
  const flipVip1 = (film: FilmCard, value: 0 | 1) => {
    patchFilm(film.slug, { VIP1: value });
    vip1.mutate({ film, value });
  };

  const save = useMutation({
    mutationFn: (data: FilmEdit) => editFilm(data),
    onSuccess: (_res, data) => {
      const { slug, ...fields } = data;
      patchFilm(slug, { ...fields, namphathanh: fields.namphathanh ?? null });
      setEditing(null);
      toast.success('Đã lưu phim');
      void queryClient.invalidateQueries({ queryKey: ['admin', 'films'] });
    },
    onError: (error) => toast.error('Có lỗi xảy ra!', { description: messageOf(error) }),
  });

  const remove = useMutation({
    mutationFn: (slugs: string[]) => deleteFilms(slugs),
    onSuccess: (res) => {
      setSelection({});
      toast.success(`Đã xoá ${res.deleted} phim`);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'films'] });
    },
    onError: (error) => toast.error('Không xoá được phim', { description: messageOf(error) }),
  });

  const confirmDelete = (list: FilmCard[]) => {
    const names = list.length === 1 ? `phim "${list[0]?.title}"` : `${list.length} phim`;
    if (window.confirm(`Xoá ${names}? Các tập, bình luận và đánh giá của phim cũng bị xoá.`)) remove.mutate(list.map((f) => f.slug));
  };

  const saveDraft = () => {
    if (!editing) return;
    const { draft } = editing;
    const year = draft.namphathanh.trim();
    if (!draft.title.trim()) return toast.error('Tên phim không được để trống');
    if (year && !/^\d{4}$/.test(year)) return toast.error('Năm phát hành phải là một năm (ví dụ 2024)');
    save.mutate({
      slug: editing.slug,
      title: draft.title.trim(),
      nameenglish: draft.nameenglish.trim(),
      namphathanh: year ? Number(year) : undefined,
      trangthai: draft.trangthai.trim(),
      sotap: draft.sotap.trim(),
      chatluong: draft.chatluong.trim(),
      category_id: draft.category_id,
    });
  };

  const field = (film: FilmCard, key: Exclude<keyof Draft, 'category_id'>, label: string, value: string, width?: number) =>
    editing?.slug === film.slug ? (
      <input
        className="admin-input"
        aria-label={label}
        style={width ? { minWidth: width } : undefined}
        value={editing.draft[key]}
        onChange={(e) => setEditing({ slug: film.slug, draft: { ...editing.draft, [key]: e.target.value } })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') saveDraft();
          if (e.key === 'Escape') setEditing(null);
        }}
      />
    ) : (
      value
    );

  const columns = [
    column.display({
      id: 'select',
      header: ({ table }) => (
        <input
          type="checkbox"
          aria-label="Chọn cả trang"
          checked={table.getIsAllRowsSelected()}
          ref={(el) => {
            if (el) el.indeterminate = table.getIsSomeRowsSelected();
          }}
          onChange={table.getToggleAllRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input
          type="checkbox"
          aria-label={`Chọn ${row.original.title}`}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    }),
    column.accessor('title', {
      header: 'Tên phim',
      cell: ({ row: { original: f } }) =>
        editing?.slug === f.slug ? (
          field(f, 'title', 'Tên phim', f.title, 200)
        ) : (
          <Link to="/$slug" params={{ slug: f.slug }} target="_blank">
            {f.title}
          </Link>
        ),
    }),
    column.accessor('VIP1', {
      header: 'VIP1',
      cell: ({ row: { original: f } }) => (
        <input
          type="checkbox"
          aria-label={`VIP1 của ${f.title}`}
          checked={f.VIP1 === 1}
          onChange={(e) => flipVip1(f, e.target.checked ? 1 : 0)}
        />
      ),
    }),
    column.accessor('nameenglish', {
      header: 'Tên tiếng Anh',
      cell: ({ row: { original: f } }) => field(f, 'nameenglish', 'Tên tiếng Anh', f.nameenglish, 140),
    }),
    column.accessor('namphathanh', {
      header: 'Năm',
      cell: ({ row: { original: f } }) => field(f, 'namphathanh', 'Năm phát hành', f.namphathanh == null ? '' : String(f.namphathanh), 70),
    }),
    column.accessor('category_id', {
      header: 'Danh mục',
      cell: ({ row: { original: f } }) =>
        editing?.slug === f.slug ? (
          <select
            className="admin-select"
            aria-label="Danh mục"
            value={editing.draft.category_id}
            onChange={(e) => setEditing({ slug: f.slug, draft: { ...editing.draft, category_id: Number(e.target.value) } })}
          >
            {CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        ) : (
          (CATEGORY_NAME.get(f.category_id) ?? f.category_id)
        ),
    }),
    column.accessor('trangthai', {
      header: 'Trạng thái',
      cell: ({ row: { original: f } }) => field(f, 'trangthai', 'Trạng thái', f.trangthai, 110),
    }),
    column.accessor('sotap', { header: 'Số tập', cell: ({ row: { original: f } }) => field(f, 'sotap', 'Số tập', f.sotap, 70) }),
    column.accessor('chatluong', {
      header: 'Chất lượng',
      cell: ({ row: { original: f } }) => field(f, 'chatluong', 'Chất lượng', f.chatluong, 70),
    }),
    column.accessor('views', { header: 'Lượt xem', cell: (c) => formatNumber(c.getValue()) }),
    column.display({
      id: 'actions',
      header: '',
      cell: ({ row: { original: f } }) =>
        editing?.slug === f.slug ? (
          <div className="actions">
            <button type="button" className="btn btn-primary btn-sm" disabled={save.isPending} onClick={saveDraft}>
              Lưu
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(null)}>
              Huỷ
            </button>
          </div>
        ) : (
          <div className="actions">
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-label={`Sửa ${f.title}`}
              onClick={() => setEditing({ slug: f.slug, draft: draftOf(f) })}
            >
              Sửa
            </button>
            {/* The whole film and its episodes per server; the row's own name is in the row. */}
            <Link to="/admin/products/edit" search={{ film: f.slug }} className="btn btn-ghost btn-sm">
              Sửa toàn bộ
            </Link>
            <button type="button" className="btn btn-danger btn-sm" aria-label={`Xoá ${f.title}`} onClick={() => confirmDelete([f])}>
              Xoá
            </button>
          </div>
        ),
    }),
  ];

  const data = films.data;
  const table = useReactTable({
    data: data?.data ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (f) => f.slug,
    manualPagination: true,
    pageCount: data?.pagination.totalPages ?? -1,
    state: { rowSelection: selection },
    onRowSelectionChange: setSelection,
    enableRowSelection: true,
  });
  const selected = table.getSelectedRowModel().rows.map((r) => r.original);

  return (
    <section>
      <AdminHeading title="Phim">
        <Link to="/admin/products/add_phim" className="btn btn-primary btn-sm">
          Thêm phim
        </Link>
        <Link to="/admin/products/add_episode" className="btn btn-ghost btn-sm">
          Thêm tập phim
        </Link>
        <Link to="/admin/products/deleted" className="btn btn-ghost btn-sm">
          Phim đã xóa
        </Link>
      </AdminHeading>
      <div className="admin-toolbar">
        <input
          type="search"
          className="admin-input admin-search"
          placeholder="Lọc theo tên phim…"
          aria-label="Lọc theo tên phim"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="button"
          className="btn btn-danger btn-sm"
          disabled={selected.length === 0 || remove.isPending}
          onClick={() => confirmDelete(selected)}
        >
          Xoá đã chọn ({selected.length})
        </button>
        {films.isFetching && <span className="muted">Loading...</span>}
      </div>
      {films.isError && !data ? (
        <p className="field-error" role="alert">
          Không tải được danh sách phim: {messageOf(films.error)}
        </p>
      ) : (
        <div className="admin-table-wrap">
          <DataTable
            table={table}
            rowProps={(row) => ({
              className: row.original.slug === editing?.slug ? 'editing' : row.getIsSelected() ? 'selected' : undefined,
              'data-slug': row.original.slug,
            })}
          />
          {data && data.data.length === 0 && <p className="admin-empty">Không có phim nào.</p>}
          {!data && films.isPending && <p className="admin-empty">Loading...</p>}
        </div>
      )}
      {data && <AdminPager pagination={data.pagination} onPage={(p) => onSearch({ q: q || undefined, page: p })} />}
    </section>
  );
}
