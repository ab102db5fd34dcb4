/** A row of tab buttons choosing one of a few views of a list (period, state). */
export function AdminTabs<K extends string>({
  label,
  options,
  value,
  onChange,
  style,
}: {
  label: string;
  options: readonly { key: K; label: string }[];
  value: K;
  onChange: (key: K) => void;
  style?: React.CSSProperties;
}) {
  return (
    <div className="admin-toolbar" role="tablist" aria-label={label} style={style}>
      {options.map((o) => (
        <button
          key={o.key}
          type="button"
          role="tab"
          aria-selected={value === o.key}
          className={`btn btn-sm ${value === o.key ? 'btn-primary' : 'btn-ghost'}`}
          onClick={() => onChange(o.key)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** 'Làm mới': fetches a page's query again, disabled while it is fetching. */
export function RefreshButton({ query }: { query: { refetch: () => unknown; isFetching: boolean } }) {
  return (
    <button type="button" className="btn btn-ghost btn-sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
      Làm mới
    </button>
  );
}
