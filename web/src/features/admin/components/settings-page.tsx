import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { AdminSettings } from '../../../../../worker/schemas/admin';
import { ApiError } from '../../../lib/api-client';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { saveSettings, settingsQuery } from '../api/site-api';
import { AdminHeading } from './admin-layout';
import { FormField, invalidProps } from './form-field';

const FIELDS: { key: keyof AdminSettings; label: string; hint?: string }[] = [
  { key: 'hotline', label: 'Hotline' },
  { key: 'bankName', label: 'Ngân hàng nhận chuyển khoản' },
  { key: 'bankAccount', label: 'Số tài khoản' },
  { key: 'bankHolder', label: 'Chủ tài khoản' },
  { key: 'crawlSource', label: 'Nguồn thu thập phim (URL)' },
];

/** /admin/settings (admin): the texts an operator changes (hotline, bank details) and the crawl source. */
export function SettingsPage() {
  usePageMeta({ title: 'Cài đặt | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery());
  const [form, setForm] = useState<AdminSettings | null>(null);
  const [error, setError] = useState<{ field?: keyof AdminSettings; message: string } | null>(null);
  useEffect(() => {
    if (settings.data && !form) setForm(settings.data.data);
  }, [settings.data, form]);

  const save = useMutation({
    mutationFn: (data: AdminSettings) => saveSettings(data),
    onSuccess: (res) => {
      queryClient.setQueryData(settingsQuery().queryKey, res);
      setForm(res.data);
      setError(null);
      toast.success('Đã lưu cài đặt');
    },
    onError: (e) => {
      const message = messageOf(e);
      const field = e instanceof ApiError ? FIELDS.find((f) => message.startsWith(`${f.key}:`))?.key : undefined;
      setError({ field: field ?? (message.includes('CRAWL_SOURCES') ? 'crawlSource' : undefined), message });
      toast.error('Không lưu được cài đặt', { description: message });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (form) save.mutate(form);
  };

  return (
    <section>
      <AdminHeading title="Cài đặt" />
      {settings.isError && <p className="field-error">{messageOf(settings.error)}</p>}
      {!form && settings.isPending && <p className="muted">Loading...</p>}
      {form && (
        <form className="admin-card admin-form" onSubmit={submit} noValidate aria-label="Cài đặt">
          {FIELDS.map(({ key, label }) => {
            const message = error?.field === key ? error.message : undefined;
            return (
              <FormField key={key} id={`settings-${key}`} label={label} error={message} wide={key === 'crawlSource'}>
                <input
                  id={`settings-${key}`}
                  className="admin-input"
                  type={key === 'crawlSource' ? 'url' : 'text'}
                  value={form[key]}
                  onChange={(e) => setForm({ ...form, [key]: e.target.value })}
                  {...invalidProps(`settings-${key}`, message)}
                />
              </FormField>
            );
          })}
          {settings.data && (
            <p className="form-hint wide">Nguồn được phép (CRAWL_SOURCES): {settings.data.allowedCrawlSources.join(', ') || '—'}</p>
          )}
          {error && !error.field && <p className="field-error wide">{error.message}</p>}
          <div className="admin-form-actions">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              Lưu cài đặt
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
