import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ADDFILM_OK, ADMIN_TEXTS } from '../../../../../worker/schemas/admin';
import { COUNTRIES } from '../../../../../worker/schemas/taxonomy';
import { ApiError } from '../../../lib/api-client';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { addFilm } from '../api/films-api';
import { AdminHeading } from './admin-layout';
import {
  CategorySelect,
  DescriptionAndVip,
  type FilmFieldErrors,
  type FilmFieldValues,
  FilmTextInputs,
  filmFieldsBody,
  GenreCheckboxes,
  useFilmForm,
  validateFilmFields,
} from './film-fields';
import { FormField } from './form-field';

type Form = FilmFieldValues & { quocgia: string };

const EMPTY: Form = {
  title: '',
  nameenglish: '',
  hinhanh: '',
  trangthai: '',
  sotap: '',
  thoiluong: '',
  namphathanh: '',
  chatluong: '',
  ngonngu: '',
  daodien: '',
  dienvien: '',
  quocgia: '',
  category_id: '',
  descripts: '',
  theloai: [],
  VIP1: false,
};

/** '/admin/addphim' answers 'title: is required'-style messages: put it under its field when we know it. */
function serverFieldError(error: unknown): FilmFieldErrors {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const [field, ...rest] = error.message.split(': ');
  return field && field in EMPTY ? { [field]: rest.join(': ') || error.message } : {};
}

/** /admin/products/add_phim (admin or VIP2): every field of the spec's form, 35 countries, the category list. */
export function AddFilmPage() {
  usePageMeta({ title: 'Thêm phim | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const { form, setForm, errors, setErrors, patch } = useFilmForm<Form>(EMPTY);
  const [added, setAdded] = useState<{ slug: string; title: string } | null>(null);

  const mutation = useMutation({
    mutationFn: (f: Form) => addFilm({ ...filmFieldsBody(f), quocgia: f.quocgia || undefined }),
    onSuccess: (res, f) => {
      if (res.message !== ADDFILM_OK) {
        toast.error(ADMIN_TEXTS.addFilmFailed);
        return;
      }
      toast.success(ADMIN_TEXTS.addFilmSuccess);
      setAdded({ slug: res.slug, title: f.title.trim() });
      setForm(EMPTY);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'films'] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        setErrors(serverFieldError(error));
        toast.error(ADMIN_TEXTS.addFilmFailed, { description: messageOf(error) });
      } else {
        toast.error(ADMIN_TEXTS.addFilmSystemError);
      }
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateFilmFields(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = Object.keys(found)[0];
      document.getElementById(`film-${first}`)?.focus();
      return;
    }
    setAdded(null);
    mutation.mutate(form);
  };

  return (
    <section>
      <AdminHeading title="Thêm phim mới" />
      {added && (
        <p className="admin-card" role="status">
          Đã thêm “{added.title}”.{' '}
          <Link to="/$slug" params={{ slug: added.slug }}>
            Xem trang phim
          </Link>{' '}
          ·{' '}
          <Link to="/admin/products/add_episode" search={{ film: added.slug }}>
            Thêm tập cho phim này
          </Link>
        </p>
      )}
      <form className="admin-card admin-form" noValidate onSubmit={submit} aria-label="Thêm phim">
        <FilmTextInputs idPrefix="film" form={form} errors={errors} patch={patch} />
        <FormField id="film-quocgia" label="Quốc gia" error={errors.quocgia}>
          <select id="film-quocgia" className="admin-select" value={form.quocgia} onChange={(e) => patch({ quocgia: e.target.value })}>
            <option value="">— Chọn quốc gia —</option>
            {COUNTRIES.map((c) => (
              <option key={c.slug} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </FormField>
        <CategorySelect idPrefix="film" form={form} errors={errors} patch={patch} placeholder="— Chọn danh mục —" />
        <GenreCheckboxes form={form} patch={patch} />
        <DescriptionAndVip idPrefix="film" form={form} errors={errors} patch={patch} />
        <div className="admin-form-actions">
          <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Đang lưu…' : 'Thêm phim'}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => {
              setForm(EMPTY);
              setErrors({});
            }}
          >
            Xoá nội dung
          </button>
        </div>
      </form>
    </section>
  );
}
