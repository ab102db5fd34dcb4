// The account forms' one way of being built (docs/decisions/0980): TanStack Form, validated with the zod
// schemas of worker/schemas (Standard Schema), each field's error tied to its input (aria-describedby), and
// the server's 4xx shown on the field it names ("email: …") or else as the form's error.
import { type AnyFieldApi, type AnyFormApi, useStore } from '@tanstack/react-form';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { ApiError, isNetworkError } from '../../../lib/api-client';
import { SessionExpiredError } from '../../../lib/auth-request';

export const NETWORK_ERROR = 'Không kết nối được máy chủ. Vui lòng kiểm tra mạng và thử lại.';
export const UNKNOWN_ERROR = 'Đã xảy ra lỗi, vui lòng thử lại sau.';

/** The wire contract's few English validation texts, as the forms show them. */
export function vietnamese(message: string): string {
  if (message === 'is required') return 'Vui lòng nhập trường này.';
  if (message === 'is too long') return 'Quá dài.';
  const min = message.match(/^must be at least (\d+) characters$/);
  if (min) return `Cần ít nhất ${min[1]} ký tự.`;
  const max = message.match(/^must be at most (\d+) characters$/);
  if (max) return `Tối đa ${max[1]} ký tự.`;
  return message;
}

/** The first error of a field (a schema issue or a server sentence), in Vietnamese; '' when none. */
export function fieldError(field: AnyFieldApi): string {
  const [first] = field.state.meta.errors as unknown[];
  if (!first) return '';
  if (typeof first === 'string') return vietnamese(first);
  if (typeof first === 'object' && first !== null && 'message' in first) return vietnamese(String((first as { message: unknown }).message));
  return '';
}

export interface ServerErrors {
  form?: string;
  fields?: Record<string, string>;
}

/**
 * What a failed call shows: a 4xx naming one of the form's fields ("email: Địa chỉ email không hợp lệ") on
 * that field, any other API sentence as the form's error (without a field prefix), a network failure as such.
 * `override` maps a status to the form's own sentence (a failed sign-in is always the same text).
 */
export function serverErrors(error: unknown, fields: readonly string[], override: Partial<Record<number, string>> = {}): ServerErrors {
  if (error instanceof SessionExpiredError) return { form: error.message };
  if (error instanceof ApiError && error.status > 0) {
    const named = error.message.match(/^([A-Za-z][\w.]*): (.+)$/s);
    const field = named?.[1]?.split('.')[0];
    if (named && field && fields.includes(field)) return { fields: { [field]: vietnamese(named[2] as string) } };
    const own = override[error.status];
    if (own) return { form: own };
    return { form: vietnamese(named ? (named[2] as string) : error.message) || UNKNOWN_ERROR };
  }
  if (isNetworkError(error)) return { form: NETWORK_ERROR };
  return { form: UNKNOWN_ERROR };
}

/** The form-level error line: always in the DOM, so screen readers announce it when it appears. */
export function FormError({ id, message }: { id: string; message: string | undefined }) {
  return (
    <p id={id} className="form-error" role="alert" aria-live="assertive">
      {message ?? ''}
    </p>
  );
}

/** The form's own error (what serverErrors put under `form`, or a form-level schema issue). */
export function formErrorOf(errors: unknown[]): string {
  for (const e of errors) {
    if (typeof e === 'string' && e) return vietnamese(e);
    if (e && typeof e === 'object' && 'form' in e && typeof (e as { form: unknown }).form === 'string') return (e as { form: string }).form;
  }
  return '';
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'onBlur' | 'id' | 'name'>;

/** A labelled text input bound to a field: its hint and its error described by id, aria-invalid while wrong. */
export function TextField({
  field,
  id,
  label,
  hint,
  children,
  ...input
}: { field: AnyFieldApi; id: string; label: string; hint?: ReactNode; children?: ReactNode } & InputProps) {
  const error = fieldError(field);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        name={field.name}
        value={String(field.state.value ?? '')}
        onChange={(e) => field.handleChange(e.target.value)}
        onBlur={field.handleBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}
      />
      {hint && (
        <p id={hintId} className="form-hint">
          {hint}
        </p>
      )}
      <p id={errorId} className="field-error" role={error ? 'alert' : undefined}>
        {error}
      </p>
      {children}
    </div>
  );
}

/**
 * The end of every account form: its error line (the server's sentence or a form-level issue; `message` wins when
 * the page has its own) and the submit button, which says it is busy while the form submits.
 */
export function SubmitRow({
  form,
  errorId,
  label,
  busyLabel,
  block = false,
  message,
}: {
  form: AnyFormApi;
  errorId: string;
  label: string;
  busyLabel: string;
  block?: boolean;
  message?: string;
}) {
  const submitting = useStore(form.store, (s) => s.isSubmitting);
  const error = useStore(form.store, (s) => formErrorOf(s.errors));
  return (
    <>
      <FormError id={errorId} message={message || error} />
      <button type="submit" className={block ? 'btn btn-primary btn-block' : 'btn btn-primary'} disabled={submitting}>
        {submitting ? busyLabel : label}
      </button>
    </>
  );
}

/** An account form: the browser's own checks off (the schemas speak Vietnamese), described by its error line, submitted through the form library. */
export function AccountForm({ form, errorId, children }: { form: AnyFormApi; errorId: string; children: ReactNode }) {
  return (
    <form
      className="auth-form"
      noValidate
      aria-describedby={errorId}
      onSubmit={(e) => {
        e.preventDefault();
        void form.handleSubmit();
      }}
    >
      {children}
    </form>
  );
}
