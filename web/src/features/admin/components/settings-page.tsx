import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { AdminSettings } from '../../../../../worker/schemas/admin';
import { SITE_PAGE_LINKS, type SitePage } from '../../../../../worker/schemas/pages';
import { ApiError } from '../../../lib/api-client';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { saveSettings, saveSitePage, settingsQuery, sitePagesQuery } from '../api/site-api';
import { AdminHeading } from './admin-layout';
import { FormField, invalidProps } from './form-field';

const FIELDS: { key: keyof AdminSettings; label: string; hint?: string }[] = [
  { key: 'hotline', label: 'Hotline' },
  { key: 'bankName', label: 'Ngân hàng nhận chuyển khoản' },
  { key: 'bankAccount', label: 'Số tài khoản' },
  { key: 'bankHolder', label: 'Chủ tài khoản' },
  {
    key: 'bankBin',
    label: 'Mã BIN ngân hàng (NAPAS, 6 số)',
    hint: 'Mã VietQR trên trang chuyển khoản ghi ngân hàng theo mã này: đổi ngân hàng thì đổi cả mã. Để trống thì trang không hiện mã QR.',
  },
  { key: 'crawlSource', label: 'Nguồn thu thập phim (URL)' },
  // Comment moderation (issue 33).
  {
    key: 'commentReportThreshold',
    label: 'Số báo cáo để ẩn một bình luận',
    hint: 'Khi đủ số thành viên khác nhau báo cáo, bình luận bị ẩn cho đến khi được kiểm duyệt.',
  },
  {
    key: 'commentNewAccountDays',
    label: 'Tài khoản mới (số ngày)',
    hint: 'Liên kết và số điện thoại trong bình luận của tài khoản trẻ hơn số ngày này, hoặc chưa mua VIP, được giữ lại chờ duyệt.',
  },
];
const NUMBER_FIELDS: readonly (keyof AdminSettings)[] = ['commentReportThreshold', 'commentNewAccountDays'];

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
    if (!form) return;
    if (!/^(?:\d{6})?$/.test(form.bankBin.trim())) {
      setError({ field: 'bankBin', message: 'Mã BIN gồm đúng 6 chữ số (hoặc để trống).' });
      document.getElementById('settings-bankBin')?.focus();
      return;
    }
    save.mutate(form);
  };

  return (
    <section>
      <AdminHeading title="Cài đặt" />
      {settings.isError && <p className="field-error">{messageOf(settings.error)}</p>}
      {!form && settings.isPending && <p className="muted">Loading...</p>}
      {form && (
        <form className="admin-card admin-form" onSubmit={submit} noValidate aria-label="Cài đặt">
          {FIELDS.map(({ key, label, hint }) => {
            const message = error?.field === key ? error.message : undefined;
            return (
              <FormField key={key} id={`settings-${key}`} label={label} error={message} wide={key === 'crawlSource'}>
                <input
                  id={`settings-${key}`}
                  className="admin-input"
                  type={key === 'crawlSource' ? 'url' : NUMBER_FIELDS.includes(key) ? 'number' : 'text'}
                  inputMode={key === 'bankBin' || NUMBER_FIELDS.includes(key) ? 'numeric' : undefined}
                  value={form[key]}
                  onChange={(e) => setForm({ ...form, [key]: NUMBER_FIELDS.includes(key) ? Number(e.target.value) : e.target.value })}
                  {...invalidProps(`settings-${key}`, message)}
                />
                {hint && <p className="form-hint">{hint}</p>}
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
      <SitePagesSettings />
    </section>
  );
}

/** The footer's pages (Quy định, Điều khoản, Bảo mật, Giới thiệu): each title and text, saved one at a time. */
function SitePagesSettings() {
  const pages = useQuery(sitePagesQuery());
  return (
    <div style={{ marginTop: 20 }}>
      <h2>Trang thông tin ở chân trang</h2>
      {pages.isError && <p className="field-error">{messageOf(pages.error)}</p>}
      {pages.isPending && <p className="muted">Loading...</p>}
      {pages.data?.data.map((page) => (
        <SitePageForm key={`${page.slug}-${page.updatedAt ?? 0}`} page={page} />
      ))}
    </div>
  );
}

function SitePageForm({ page }: { page: SitePage }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(page.title);
  const [body, setBody] = useState(page.body);
  const [error, setError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: () => saveSitePage(page.slug, { title: title.trim(), body: body.trim() }),
    onSuccess: () => {
      toast.success(`Đã lưu trang ${SITE_PAGE_LINKS[page.slug]}`);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'pages'] });
      void queryClient.invalidateQueries({ queryKey: ['site-page', page.slug] });
    },
    onError: (e) => {
      setError(messageOf(e));
      toast.error('Không lưu được trang', { description: messageOf(e) });
    },
  });
  const id = `page-${page.slug}`;
  return (
    <form
      className="admin-card admin-form"
      style={{ marginTop: 12 }}
      noValidate
      aria-label={`Trang ${SITE_PAGE_LINKS[page.slug]}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) return setError('title: Vui lòng nhập tiêu đề.');
        setError(undefined);
        save.mutate();
      }}
    >
      <FormField id={`${id}-title`} label={`Tiêu đề (/${page.slug})`} error={error?.startsWith('title') ? error : undefined} wide>
        <input
          id={`${id}-title`}
          className="admin-input"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          {...invalidProps(`${id}-title`, error?.startsWith('title') ? error : undefined)}
        />
      </FormField>
      <FormField
        id={`${id}-body`}
        label="Nội dung (dòng trống ngăn đoạn; để trống để dùng nội dung mặc định)"
        error={error?.startsWith('body') ? error : undefined}
        wide
      >
        <textarea id={`${id}-body`} className="admin-textarea" rows={8} value={body} onChange={(e) => setBody(e.target.value)} />
      </FormField>
      <div className="admin-form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Lưu trang
        </button>
        <a href={`/${page.slug}`} target="_blank" rel="noreferrer" className="btn btn-ghost">
          Xem trang
        </a>
      </div>
    </form>
  );
}
