import { useForm } from '@tanstack/react-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { addPasskeyBodySchema, PASSKEY_NAME_MAX_LENGTH } from '../../../../../worker/schemas/account';
import { SessionExpiredError } from '../../../lib/auth-request';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import {
  addPasskey,
  browserSupportsWebAuthn,
  isPasskeyCancel,
  PASSKEY_CANCELLED,
  PASSKEY_UNSUPPORTED,
  passkeyRefusal,
  passkeysQuery,
  removePasskey,
} from '../api/passkey-api';
import { AccountForm, serverErrors, SubmitRow, TextField } from '../forms/form-kit';

/** The label of a new passkey: the wire contract's rule (one line), optional. */
const nameSchema = z.object({ name: addPasskeyBodySchema.shape.name.unwrap().or(z.literal('')) });

/** "Khóa đăng nhập": the member's passkeys with their names and last use, each removable, and "Thêm khóa đăng nhập". */
export function PasskeysSection({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const passkeys = useQuery(passkeysQuery(userId));
  const [supported, setSupported] = useState(true);
  const [removing, setRemoving] = useState<string | null>(null);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['passkeys', userId] });

  const form = useForm({
    defaultValues: { name: '' },
    validators: {
      onSubmit: nameSchema,
      onSubmitAsync: async ({ value, formApi }) => {
        try {
          toast.success(await addPasskey(value.name.trim() || undefined));
          formApi.reset();
          await refresh();
          return undefined;
        } catch (err) {
          if (isPasskeyCancel(err)) return { form: PASSKEY_CANCELLED };
          const refusal = passkeyRefusal(err);
          return refusal ? { form: refusal } : serverErrors(err, ['name']);
        }
      },
    },
  });

  const remove = async (id: string, name: string) => {
    if (!window.confirm(`Xóa khóa đăng nhập "${name}"? Thiết bị dùng khóa này sẽ không đăng nhập bằng nó được nữa.`)) return;
    setRemoving(id);
    try {
      toast.success(await removePasskey(id));
      await refresh();
    } catch (err) {
      if (!(err instanceof SessionExpiredError)) toast.error(serverErrors(err, []).form ?? '');
    } finally {
      setRemoving(null);
    }
  };

  return (
    <section className="auth-card account-card" aria-labelledby="passkeys-heading" data-testid="passkeys">
      <h2 id="passkeys-heading" className="section-title">
        Khóa đăng nhập (passkey)
      </h2>
      <p className="muted">Đăng nhập bằng vân tay, khuôn mặt hoặc mã khóa màn hình của thiết bị, không cần mật khẩu.</p>
      {passkeys.data && passkeys.data.length > 0 && (
        <ul className="item-list">
          {passkeys.data.map((p) => (
            <li key={p.id} data-testid="passkey">
              <span className="item-main">
                <span className="item-title">{p.name}</span>
                <span className="item-meta">
                  Thêm lúc {formatDateTime(p.createdAt)} · {p.lastUsedAt ? `dùng lần cuối ${formatDateTime(p.lastUsedAt)}` : 'chưa dùng'}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => void remove(p.id, p.name)}
                disabled={removing !== null}
                aria-label={`Xóa khóa đăng nhập ${p.name}`}
              >
                Xóa
              </button>
            </li>
          ))}
        </ul>
      )}
      {passkeys.data?.length === 0 && <p className="muted">Chưa có khóa đăng nhập nào.</p>}
      {supported ? (
        <AccountForm form={form} errorId="passkey-error">
          <form.Field name="name">
            {(field) => (
              <TextField
                field={field}
                id="passkey-name"
                label="Tên khóa (không bắt buộc)"
                type="text"
                autoComplete="off"
                maxLength={PASSKEY_NAME_MAX_LENGTH}
                hint="Ví dụ: Điện thoại của Lan"
              />
            )}
          </form.Field>
          <SubmitRow form={form} errorId="passkey-error" label="Thêm khóa đăng nhập" busyLabel="Đang chờ thiết bị..." />
        </AccountForm>
      ) : (
        <p className="muted">{PASSKEY_UNSUPPORTED}</p>
      )}
    </section>
  );
}
