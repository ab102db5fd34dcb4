/** Card-sized empty boxes while a list loads, so the page does not move when the films arrive. */
export function PlaceholderGrid({ count }: { count: number }) {
  return (
    <ul className="film-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder: the position is the identity.
        <li key={i}>
          <div className="film-card film-card-placeholder">
            <span className="film-card-media">
              <span className="poster poster-skeleton" />
            </span>
            <span className="film-card-title skeleton-line" />
            <span className="film-card-sub skeleton-line short" />
          </div>
        </li>
      ))}
    </ul>
  );
}
