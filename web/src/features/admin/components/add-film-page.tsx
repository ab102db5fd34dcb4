import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ADDFILM_OK, ADMIN_TEXTS } from '../../../../../worker/schemas/admin';
import { CATEGORIES, COUNTRIES, GENRES } from '../../../../../worker/schemas/taxonomy';
import { ApiError } from '../../../lib/api-client';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { addFilm } from '../api/films-api';
import { AdminHeading } from './admin-layout';
import { FormField, invalidProps } from './form-field';
import { isHttpUrl } from '../http-url';

const TEXT_FIELDS = [
  { key: 'title', label: 'Tên phim *', max: 300 },
  { key: 'nameenglish', label: 'Tên tiếng Anh', max: 300 },
  { key: 'hinhanh', label: 'Ảnh poster (URL)', max: 2000 },
  { key: 'trangthai', label: 'Trạng thái (ví dụ: Hoàn Tất, Tập 5/16)', max: 100 },
  { key: 'sotap', label: 'Số tập', max: 50 },
  { key: 'thoiluong', label: 'Thời lượng', max: 50 },
  { key: 'namphathanh', label: 'Năm phát hành', max: 4 },
  { key: 'chatluong', label: 'Chất lượng (HD, FHD…)', max: 50 },
  { key: 'ngonngu', label: 'Ngôn ngữ (Vietsub, Thuyết minh…)', max: 100 },
  { key: 'daodien', label: 'Đạo diễn', max: 500 },
  { key: 'dienvien', label: 'Diễn viên', max: 2000 },
] as const;

type TextKey = (typeof TEXT_FIELDS)[number]['key'];
type Form = Record<TextKey, string> & { quocgia: string; category_id: string; descripts: string; theloai: string[]; VIP1: boolean };
type Errors = Partial<Record<keyof Form, string>>;

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

/** The rules of addFilmSchema (worker/schemas/admin.ts), with Vietnamese messages next to each field. */
export function validateFilm(form: Form): Errors {
  const errors: Errors = {};
  if (!form.title.trim()) errors.title = 'Vui lòng nhập tên phim.';
  for (const { key, max } of TEXT_FIELDS) if (form[key].trim().length > max) errors[key] ??= `Tối đa ${max} ký tự.`;
  if (form.hinhanh.trim() && !isHttpUrl(form.hinhanh.trim())) errors.hinhanh = 'Ảnh phải là một địa chỉ http(s).';
  const year = form.namphathanh.trim();
  if (year && !(/^\d{4}$/.test(year) && Number(year) >= 1900 && Number(year) <= 2100))
    errors.namphathanh = 'Năm phát hành phải là năm từ 1900 đến 2100.';
  if (!form.category_id) errors.category_id = 'Vui lòng chọn danh mục phim.';
  if (form.descripts.length > 10_000) errors.descripts = 'Tối đa 10.000 ký tự.';
  return errors;
}

/** '/admin/addphim' answers 'title: is required'-style messages: put it under its field when we know it. */
function serverFieldError(error: unknown): Errors {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const [field, ...rest] = error.message.split(': ');
  return field && field in EMPTY ? { [field]: rest.join(': ') || error.message } : {};
}

/** /admin/products/add_phim (admin or VIP2): every field of the spec's form, 35 countries, the category list. */
export function AddFilmPage() {
  usePageMeta({ title: 'Thêm phim | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [added, setAdded] = useState<{ slug: string; title: string } | null>(null);

  const mutation = useMutation({
    mutationFn: (f: Form) =>
      addFilm({
        title: f.title.trim(),
        hinhanh: f.hinhanh.trim(),
        nameenglish: f.nameenglish.trim(),
        trangthai: f.trangthai.trim(),
        sotap: f.sotap.trim(),
        thoiluong: f.thoiluong.trim(),
        namphathanh: f.namphathanh.trim() || undefined,
        chatluong: f.chatluong.trim(),
        ngonngu: f.ngonngu.trim(),
        daodien: f.daodien.trim(),
        dienvien: f.dienvien.trim(),
        theloai: f.theloai,
        quocgia: f.quocgia || undefined,
        descripts: f.descripts.trim(),
        category_id: Number(f.category_id),
        VIP1: f.VIP1 ? 1 : 0,
      }),
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

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateFilm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = Object.keys(found)[0];
      document.getElementById(`film-${first}`)?.focus();
      return;
    }
    setAdded(null);
    mutation.mutate(form);
  };

  const toggleGenre = (name: string, on: boolean) => set('theloai', on ? [...form.theloai, name] : form.theloai.filter((g) => g !== name));

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
        {TEXT_FIELDS.map(({ key, label }) => (
          <FormField key={key} id={`film-${key}`} label={label} error={errors[key]}>
            <input
              id={`film-${key}`}
              className="admin-input"
              inputMode={key === 'namphathanh' ? 'numeric' : undefined}
              type={key === 'hinhanh' ? 'url' : 'text'}
              value={form[key]}
              onChange={(e) => set(key, e.target.value)}
              {...invalidProps(`film-${key}`, errors[key])}
            />
          </FormField>
        ))}
        <FormField id="film-quocgia" label="Quốc gia" error={errors.quocgia}>
          <select id="film-quocgia" className="admin-select" value={form.quocgia} onChange={(e) => set('quocgia', e.target.value)}>
            <option value="">— Chọn quốc gia —</option>
            {COUNTRIES.map((c) => (
              <option key={c.slug} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="film-category_id" label="Danh mục *" error={errors.category_id}>
          <select
            id="film-category_id"
            className="admin-select"
            value={form.category_id}
            onChange={(e) => set('category_id', e.target.value)}
            {...invalidProps('film-category_id', errors.category_id)}
          >
            <option value="">— Chọn danh mục —</option>
            {CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </FormField>
        <fieldset className="admin-field wide" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend>Thể loại</legend>
          <div className="genre-grid">
            {GENRES.map((g) => (
              <label key={g.slug}>
                <input type="checkbox" checked={form.theloai.includes(g.name)} onChange={(e) => toggleGenre(g.name, e.target.checked)} />
                {g.name}
              </label>
            ))}
          </div>
        </fieldset>
        <FormField id="film-descripts" label="Mô tả" error={errors.descripts} wide>
          <textarea
            id="film-descripts"
            className="admin-textarea"
            value={form.descripts}
            onChange={(e) => set('descripts', e.target.value)}
            {...invalidProps('film-descripts', errors.descripts)}
          />
        </FormField>
        <label className="wide" style={{ display: 'flex', gap: 8, alignItems: 'center', fontWeight: 600 }}>
          <input type="checkbox" checked={form.VIP1} onChange={(e) => set('VIP1', e.target.checked)} />
          Chỉ dành cho thành viên VIP (VIP1)
        </label>
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
