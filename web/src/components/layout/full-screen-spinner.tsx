/** The app-wide loading state: a full-screen spinner with visually hidden 'Loading...'. */
export function FullScreenSpinner() {
  return (
    <div className="app-spinner" role="status">
      <span className="spinner-ring" aria-hidden="true" />
      <span className="visually-hidden">Loading...</span>
    </div>
  );
}
