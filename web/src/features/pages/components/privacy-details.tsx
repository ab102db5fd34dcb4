import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import {
  PRIVACY_DATA,
  PRIVACY_PAGE_TEXTS as T,
  PRIVACY_POLICY_VERSION,
  PRIVACY_PROCESSORS,
  PRIVACY_REQUEST_KIND_TEXT,
  PRIVACY_REQUEST_KINDS,
  PRIVACY_REQUEST_MESSAGE_MAX,
  PRIVACY_RIGHTS,
  type PrivacyRequestKind,
} from '../../../../../worker/schemas/privacy-texts';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { sendPrivacyRequest } from '../api/privacy-api';

/** One table; on a phone each row becomes a card whose cells carry their column's name (data-label). */
function PrivacyTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: readonly string[];
  rows: { key: string; cells: React.ReactNode[] }[];
}) {
  return (
    <table className="privacy-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, i) => (
              <td key={columns[i]} data-label={columns[i]}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The privacy page's part that follows the product (docs/decisions/1050): every kind of personal data kept, why
 * and how long (the scheduler's own figures, worker/schemas/retention.ts), the processors, each right with its
 * deadline, and the request form for what has no page of its own.
 */
export function PrivacyDetails() {
  return (
    <section className="privacy-details">
      <p className="muted">{T.version(PRIVACY_POLICY_VERSION)}</p>
      <h2>{T.dataHeading}</h2>
      <PrivacyTable
        caption={T.dataHeading}
        columns={T.dataColumns}
        rows={PRIVACY_DATA.map((r) => ({ key: r.id, cells: [r.data, r.purpose, r.kept] }))}
      />
      <h2>{T.processorsHeading}</h2>
      <PrivacyTable
        caption={T.processorsHeading}
        columns={T.processorColumns}
        rows={PRIVACY_PROCESSORS.map((p) => ({ key: p.name, cells: [p.name, p.role, p.data] }))}
      />
      <h2>{T.rightsHeading}</h2>
      <PrivacyTable
        caption={T.rightsHeading}
        columns={T.rightColumns}
        rows={PRIVACY_RIGHTS.map((r) => ({
          key: r.right,
          cells: [
            r.right,
            <>
              {r.how}
              {r.link && (
                <>
                  {' '}
                  <Link to={r.link.to}>{r.link.text}</Link>
                </>
              )}
            </>,
            r.deadline,
          ],
        }))}
      />
      <PrivacyRequestForm />
    </section>
  );
}

function PrivacyRequestForm() {
  const session = useSession();
  const id = useId();
  const [kind, setKind] = useState<PrivacyRequestKind>('correct');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  const [sent, setSent] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setSending(true);
    try {
      const receipt = await sendPrivacyRequest({ kind, message, ...(session ? {} : { email }) });
      setSent(T.requestSent(formatDateTime(receipt.acknowledgeBy)));
      setMessage('');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Không gửi được yêu cầu, vui lòng thử lại.');
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="privacy-request" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.requestHeading}</h2>
      <label htmlFor={`${id}-kind`}>{T.requestKind}</label>
      <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as PrivacyRequestKind)}>
        {PRIVACY_REQUEST_KINDS.map((k) => (
          <option key={k} value={k}>
            {PRIVACY_REQUEST_KIND_TEXT[k]}
          </option>
        ))}
      </select>
      {session ? (
        <p className="muted">Chúng tôi trả lời qua email tài khoản: {session.email}</p>
      ) : (
        <>
          <label htmlFor={`${id}-email`}>{T.requestEmail}</label>
          <input
            id={`${id}-email`}
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </>
      )}
      <label htmlFor={`${id}-message`}>{T.requestMessage}</label>
      <textarea
        id={`${id}-message`}
        rows={4}
        required
        maxLength={PRIVACY_REQUEST_MESSAGE_MAX}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
      />
      <p className="form-error" role="alert">
        {error}
      </p>
      {sent && (
        <p className="form-success" role="status">
          {sent}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={sending}>
        {sending ? 'Đang gửi...' : T.requestSubmit}
      </button>
    </form>
  );
}
