import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import { Poster } from '../../../components/film/poster';
import { VipBadge } from '../../../components/film/vip-badge';
import { isNetworkError } from '../../../lib/api-client';
import { useOnline } from '../../../lib/online';
import { useDebounced } from '../../../lib/use-debounced';
import type { SearchNavState } from '../search-state';
import type { FilmCard } from '../../../../../worker/schemas/catalogue';
import type { PersonSuggestion } from '../../../../../worker/schemas/discovery';
import { PERSON_ROLES } from '../../../../../worker/schemas/discovery-texts';
import { RESULTS_PAGE_SIZE, SUGGESTION_LIMIT, searchQuery } from '../api/search-queries';

type Suggestion = { kind: 'person'; key: string; person: PersonSuggestion } | { kind: 'film'; key: string; film: FilmCard };

/**
 * The header search as an ARIA combobox: suggestions (image, title, English name) for
 * a trimmed non-empty query, at most 5, debounced; arrow keys move, Enter opens the highlighted film
 * or submits, Escape closes. Submitting goes to /tim-kiem/{q} with the results as navigation state.
 */
export function SearchBox() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const q = useDebounced(text.trim(), 250);

  const { data, isFetching, error } = useQuery({ ...searchQuery(q, SUGGESTION_LIMIT), enabled: q.length > 0 });
  // Offline, an unanswered query is not "no match": the viewer is told why instead.
  const online = useOnline();
  const unreachable = isNetworkError(error) || (!online && !data);
  // People whose name starts with the query first ("Trấn Thành · Diễn viên · 3 phim", issue 40 §1), then films.
  const suggestions: Suggestion[] =
    q.length > 0 && text.trim().length > 0
      ? [
          ...(data?.people ?? []).map((person) => ({ kind: 'person' as const, key: `p-${person.role}-${person.slug}`, person })),
          ...(data?.data ?? []).slice(0, SUGGESTION_LIMIT).map((film) => ({ kind: 'film' as const, key: `f-${film.id}`, film })),
        ]
      : [];
  const showList = open && text.trim().length > 0 && (suggestions.length > 0 || (!isFetching && q === text.trim()));

  // A new query starts with no suggestion highlighted (state adjusted while rendering, no effect).
  const [activeFor, setActiveFor] = useState(q);
  if (activeFor !== q) {
    setActiveFor(q);
    setActive(-1);
  }

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const openSuggestion = (item: Suggestion) => {
    close();
    setText('');
    inputRef.current?.blur();
    if (item.kind === 'film') void navigate({ to: '/$slug', params: { slug: item.film.slug } });
    else if (item.person.role === 'director') void navigate({ to: '/dao-dien/$slug', params: { slug: item.person.slug } });
    else void navigate({ to: '/dien-vien/$slug', params: { slug: item.person.slug } });
  };

  const submit = async () => {
    const query = text.trim();
    if (!query) return;
    close();
    inputRef.current?.blur();
    let search: SearchNavState | undefined;
    try {
      const results = await queryClient.fetchQuery(searchQuery(query, RESULTS_PAGE_SIZE, 1));
      search = { q: query, results, at: Date.now() };
    } catch {
      // Offline or failing: the results page queries again (and says why).
    }
    void navigate({ to: '/tim-kiem/$q', params: { q: query }, state: (prev) => ({ ...prev, search }) });
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      if (suggestions.length) setActive((i) => (i + 1) % suggestions.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (suggestions.length) setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        close();
      }
    } else if (e.key === 'Enter') {
      const item = active >= 0 ? suggestions[active] : undefined;
      if (item && showList) {
        e.preventDefault();
        openSuggestion(item);
      }
    }
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is missing in Safari before 17; the form's role says the same to every browser.
    <form
      className="search-box"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={`${listId}-input`} className="visually-hidden">
        Tìm kiếm phim
      </label>
      <input
        ref={inputRef}
        id={`${listId}-input`}
        type="search"
        role="combobox"
        autoComplete="off"
        enterKeyHint="search"
        placeholder="Tìm kiếm phim..."
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={active >= 0 && showList ? `${listId}-opt-${active}` : undefined}
        value={text}
        maxLength={100}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(close, 150)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="search-submit" aria-label="Tìm kiếm">
        <svg
          viewBox="0 0 24 24"
          width="18"
          height="18"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          strokeLinecap="round"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
      </button>
      <div id={listId} role="listbox" aria-label="Gợi ý tìm kiếm" className="search-suggestions" hidden={!showList}>
        {suggestions.map((item, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: keys are the combobox input's (arrows, Enter; aria-activedescendant), as the ARIA pattern has it.
          <div
            key={item.key}
            id={`${listId}-opt-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            className={`suggestion ${i === active ? 'active' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => openSuggestion(item)}
            onMouseEnter={() => setActive(i)}
          >
            {item.kind === 'person' ? (
              <>
                <span className="suggestion-poster suggestion-person" aria-hidden="true">
                  {item.person.name.slice(0, 1)}
                </span>
                <span className="suggestion-text">
                  <span className="suggestion-title">{item.person.name}</span>
                  <span className="suggestion-sub">
                    {PERSON_ROLES[item.person.role].label} · {item.person.films} phim
                  </span>
                </span>
              </>
            ) : (
              <>
                <Poster src={item.film.thumb || item.film.hinhanh} alt="" width={44} height={62} className="suggestion-poster" />
                <span className="suggestion-text">
                  <span className="suggestion-title">
                    <VipBadge film={item.film} variant="inline" />
                    {item.film.title}
                  </span>
                  {item.film.nameenglish && <span className="suggestion-sub">{item.film.nameenglish}</span>}
                </span>
              </>
            )}
          </div>
        ))}
        {showList && suggestions.length === 0 && (
          <div className="suggestion-empty" role="option" tabIndex={-1} aria-selected={false} aria-disabled="true">
            {unreachable ? 'Bạn đang ngoại tuyến' : 'Không tìm thấy phim phù hợp'}
          </div>
        )}
      </div>
    </form>
  );
}
