/**
 * A form's error line. Always in the DOM, so screen readers announce the message the moment it
 * appears (a live region added together with its text is often missed).
 */
export function FormError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} className="form-error" role="alert" aria-live="assertive">
      {message}
    </p>
  );
}
