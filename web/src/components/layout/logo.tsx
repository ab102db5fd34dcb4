export function Logo() {
  return (
    <>
      <svg viewBox="0 0 100 100" width="34" height="34" aria-hidden="true">
        <rect x="6" y="16" width="88" height="68" rx="14" fill="none" stroke="#e50914" strokeWidth="8" />
        <path d="M41 34 L68 50 L41 66 Z" fill="#fff" />
      </svg>
      <span className="logo-text">
        Phim<span>Viet</span>
      </span>
    </>
  );
}
