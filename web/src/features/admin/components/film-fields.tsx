// The film's fields shared by the add form (/admin/products/add_phim) and the whole-film editor
// (/admin/products/edit): the text inputs, genre and country checkboxes, category, description and VIP flag,
// their rules (those of addFilmSchema and editFilmSchema, worker/schemas/admin.ts) and the request body they
// make. Each page keeps its own state, ids and what it does with the answer.
import { useState } from 'react';
import { CATEGORIES, GENRES } from '../../../../../worker/schemas/taxonomy';
import { isHttpUrl } from '../http-url';
import { FormField, invalidProps } from './form-field';

export const FILM_TEXT_FIELDS = [
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

export type FilmTextKey = (typeof FILM_TEXT_FIELDS)[number]['key'];

/** What both forms hold (the country differs: one in the add form's select, several in the editor). */
export type FilmFieldValues = Record<FilmTextKey, string> & { descripts: string; theloai: string[]; category_id: string; VIP1: boolean };
export type FilmFieldErrors = Partial<Record<keyof FilmFieldValues | 'quocgia', string>>;
/** Sets some fields (the page keeps the form's state and clears the errors of what changed). */
export type PatchFilm = (patch: Partial<FilmFieldValues>) => void;

/** A film form's state: its values, its errors, and `patch`, which sets fields and clears their errors. */
export function useFilmForm<F extends FilmFieldValues>(initial: F | (() => F)) {
  const [form, setForm] = useState<F>(initial);
  const [errors, setErrors] = useState<FilmFieldErrors>({});
  const patch = (change: Partial<F>) => {
    setForm((f) => ({ ...f, ...change }));
    const keys = Object.keys(change) as (keyof FilmFieldErrors)[];
    if (keys.some((key) => errors[key])) setErrors((e) => ({ ...e, ...Object.fromEntries(keys.map((key) => [key, undefined])) }));
  };
  return { form, setForm, errors, setErrors, patch };
}

/** The shared rules, with Vietnamese messages next to each field. */
export function validateFilmFields(form: FilmFieldValues): FilmFieldErrors {
  const errors: FilmFieldErrors = {};
  if (!form.title.trim()) errors.title = 'Vui lòng nhập tên phim.';
  for (const { key, max } of FILM_TEXT_FIELDS) if (form[key].trim().length > max) errors[key] ??= `Tối đa ${max} ký tự.`;
  if (form.hinhanh.trim() && !isHttpUrl(form.hinhanh.trim())) errors.hinhanh = 'Ảnh phải là một địa chỉ http(s).';
  const year = form.namphathanh.trim();
  if (year && !(/^\d{4}$/.test(year) && Number(year) >= 1900 && Number(year) <= 2100))
    errors.namphathanh = 'Năm phát hành phải là năm từ 1900 đến 2100.';
  if (!form.category_id) errors.category_id = 'Vui lòng chọn danh mục phim.';
  if (form.descripts.length > 10_000) errors.descripts = 'Tối đa 10.000 ký tự.';
  return errors;
}

/** The request body's shared fields, trimmed, as /admin/addphim and /admin/editphim take them. */
export function filmFieldsBody(f: FilmFieldValues) {
  return {
    title: f.title.trim(),
    nameenglish: f.nameenglish.trim(),
    hinhanh: f.hinhanh.trim(),
    trangthai: f.trangthai.trim(),
    sotap: f.sotap.trim(),
    thoiluong: f.thoiluong.trim(),
    namphathanh: f.namphathanh.trim() || undefined,
    chatluong: f.chatluong.trim(),
    ngonngu: f.ngonngu.trim(),
    daodien: f.daodien.trim(),
    dienvien: f.dienvien.trim(),
    descripts: f.descripts.trim(),
    theloai: f.theloai,
    category_id: Number(f.category_id),
    VIP1: f.VIP1 ? 1 : 0,
  } as const;
}

/** What a group of fields is drawn from: ids `{idPrefix}-{field}`, the values, their errors, the setter. */
interface FieldsProps {
  idPrefix: string;
  form: FilmFieldValues;
  errors: FilmFieldErrors;
  patch: PatchFilm;
}

/** The eleven text inputs, ids `{idPrefix}-{key}`. */
export function FilmTextInputs({ idPrefix, form, errors, patch }: FieldsProps) {
  return FILM_TEXT_FIELDS.map(({ key, label }) => (
    <FormField key={key} id={`${idPrefix}-${key}`} label={label} error={errors[key]}>
      <input
        id={`${idPrefix}-${key}`}
        className="admin-input"
        inputMode={key === 'namphathanh' ? 'numeric' : undefined}
        type={key === 'hinhanh' ? 'url' : 'text'}
        value={form[key]}
        onChange={(e) => patch({ [key]: e.target.value })}
        {...invalidProps(`${idPrefix}-${key}`, errors[key])}
      />
    </FormField>
  ));
}

/** The category select; `placeholder` adds an empty first choice (a new film has none yet). */
export function CategorySelect({ idPrefix, form, errors, patch, placeholder }: FieldsProps & { placeholder?: string }) {
  const id = `${idPrefix}-category_id`;
  return (
    <FormField id={id} label="Danh mục *" error={errors.category_id}>
      <select
        id={id}
        className="admin-select"
        value={form.category_id}
        onChange={(e) => patch({ category_id: e.target.value })}
        {...invalidProps(id, errors.category_id)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {CATEGORIES.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </FormField>
  );
}

/** A wide group of checkboxes, one per name (genres; the editor's countries). */
export function NameCheckboxes({
  legend,
  items,
  checked,
  onToggle,
}: {
  legend: string;
  items: readonly { slug: string; name: string }[];
  checked: readonly string[];
  onToggle: (name: string, on: boolean) => void;
}) {
  return (
    <fieldset className="admin-field wide" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend>{legend}</legend>
      <div className="genre-grid">
        {items.map((item) => (
          <label key={item.slug}>
            <input type="checkbox" checked={checked.includes(item.name)} onChange={(e) => onToggle(item.name, e.target.checked)} />
            {item.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The genres, checked by name. */
export function GenreCheckboxes({ form, patch }: { form: FilmFieldValues; patch: PatchFilm }) {
  return (
    <NameCheckboxes
      legend="Thể loại"
      items={GENRES}
      checked={form.theloai}
      onToggle={(name, on) => patch({ theloai: on ? [...form.theloai, name] : form.theloai.filter((g) => g !== name) })}
    />
  );
}

/** The description and the VIP flag. */
export function DescriptionAndVip({ idPrefix, form, errors, patch }: FieldsProps) {
  return (
    <>
      <FormField id={`${idPrefix}-descripts`} label="Mô tả" error={errors.descripts} wide>
        <textarea
          id={`${idPrefix}-descripts`}
          className="admin-textarea"
          value={form.descripts}
          onChange={(e) => patch({ descripts: e.target.value })}
          {...invalidProps(`${idPrefix}-descripts`, errors.descripts)}
        />
      </FormField>
      <label className="wide" style={{ display: 'flex', gap: 8, alignItems: 'center', fontWeight: 600 }}>
        <input type="checkbox" checked={form.VIP1} onChange={(e) => patch({ VIP1: e.target.checked })} />
        Chỉ dành cho thành viên VIP (VIP1)
      </label>
    </>
  );
}
