import { useId, useState } from 'react';
import { COUNTRIES, GENRES } from '../../../../../worker/schemas/taxonomy';
import { releaseYears } from '../../../../../worker/schemas/taxonomy';
import type { ListingSearch } from '../listing-search';

const TYPES = [
  { id: 24, label: 'Phim Bộ' },
  { id: 25, label: 'Phim Lẻ' },
  { id: 26, label: 'TV Show' },
  { id: 27, label: 'Phim Sắp Chiếu' },
];

type Filters = Omit<ListingSearch, 'page'>;

/**
 * The listing filter bar. It edits its own copy of the filters; 'Lọc phim' applies them (the page
 * writes them into the query string). The parent remounts it when the URL's filters change, so
 * back/forward show the filters in effect.
 */
export function FilterBar({ applied, onApply }: { applied: Filters; onApply: (filters: Filters) => void }) {
  const [draft, setDraft] = useState<Filters>(applied);
  const id = useId();
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const num = (v: string) => (v === '' ? undefined : Number(v));
  const str = (v: string) => (v.trim() === '' ? undefined : v);

  return (
    <form
      className="filter-bar"
      aria-label="Lọc phim"
      onSubmit={(e) => {
        e.preventDefault();
        onApply({ ...draft, keyword: draft.keyword?.trim() || undefined });
      }}
    >
      <div className="filter-field">
        <label htmlFor={`${id}-sort`}>Sắp xếp</label>
        <select
          id={`${id}-sort`}
          name="sort"
          value={draft.sort ?? ''}
          onChange={(e) => set('sort', str(e.target.value) as Filters['sort'])}
        >
          <option value="">- Sắp xếp -</option>
          <option value="createdAt">Mới Cập Nhật</option>
          <option value="views">Lượt Xem</option>
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-category`}>Thể loại</label>
        <select id={`${id}-category`} name="category" value={draft.category ?? ''} onChange={(e) => set('category', str(e.target.value))}>
          <option value="">- Thể loại -</option>
          {GENRES.map((g) => (
            <option key={g.slug} value={g.slug}>
              {g.name}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-country`}>Quốc gia</label>
        <select id={`${id}-country`} name="country" value={draft.country ?? ''} onChange={(e) => set('country', str(e.target.value))}>
          <option value="">- Quốc gia -</option>
          {COUNTRIES.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-type`}>Loại phim</label>
        <select id={`${id}-type`} name="type" value={draft.type ?? ''} onChange={(e) => set('type', num(e.target.value))}>
          <option value="">- Loại phim -</option>
          {TYPES.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-year`}>Năm phát hành</label>
        <select id={`${id}-year`} name="year" value={draft.year ?? ''} onChange={(e) => set('year', num(e.target.value))}>
          <option value="">- Năm -</option>
          {releaseYears().map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </div>
      <div className="filter-field">
        <label htmlFor={`${id}-chieurap`}>Chiếu rạp</label>
        <select
          id={`${id}-chieurap`}
          name="chieurap"
          value={draft.chieurap ? '1' : ''}
          onChange={(e) => set('chieurap', e.target.value === '1' ? 1 : undefined)}
        >
          <option value="">- Tất cả -</option>
          <option value="1">Phim chiếu rạp</option>
        </select>
      </div>
      <div className="filter-field filter-keyword">
        <label htmlFor={`${id}-keyword`}>Từ khóa</label>
        <input
          id={`${id}-keyword`}
          name="keyword"
          type="text"
          maxLength={100}
          placeholder="Nhập từ khóa..."
          value={draft.keyword ?? ''}
          onChange={(e) => set('keyword', e.target.value === '' ? undefined : e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary filter-submit">
        Lọc phim
      </button>
    </form>
  );
}
