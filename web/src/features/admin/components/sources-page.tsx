import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import {
  SOURCE_FAMILIES,
  SOURCE_FAMILY_TEXT,
  SOURCE_TEXTS,
  type SourceCheckDto,
  type SourceDto,
  type SourceFamilyName,
} from '../../../../../worker/schemas/sources';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { checkAllSources, checkSource, createSource, sourceLogQuery, sourcesQuery, updateSource } from '../api/sources-api';
import { RefreshButton } from './admin-controls';
import { AdminHeading } from './admin-layout';
import { RUN_STATE } from './runs-table';

type Checks = Record<number, SourceCheckDto | 'checking'>;

/** Whether the source answers now: the check this page ran, else the last one stored. */
function Answering({ source, check }: { source: SourceDto; check: SourceCheckDto | 'checking' | undefined }) {
  if (check === 'checking') return <span className="badge">Đang kiểm tra…</span>;
  const answering = check ? check.answering : source.answering;
  const error = check ? check.error : source.answering === false ? source.lastError : null;
  if (answering === null) return <span className="badge">{SOURCE_TEXTS.unknown}</span>;
  return (
    <span className={`badge ${answering ? 'badge-ok' : 'badge-bad'}`} title={error ?? undefined}>
      {answering ? SOURCE_TEXTS.answering : SOURCE_TEXTS.notAnswering}
    </span>
  );
}

function State({ source }: { source: SourceDto }) {
  if (!source.enabled) return <span className="badge badge-wait">{SOURCE_TEXTS.disabled}</span>;
  if (source.down)
    return (
      <span>
        <span className="badge badge-bad">{SOURCE_TEXTS.down}</span>
        {source.backoffUntil && <span className="muted"> · thử lại sau {formatDateTime(source.backoffUntil)}</span>}
      </span>
    );
  return <span className="badge badge-ok">{SOURCE_TEXTS.up}</span>;
}

/** The source's last lines (errors and merges in doubt), opened on demand. */
function SourceLog({ id }: { id: number }) {
  const log = useQuery(sourceLogQuery(id));
  if (log.isPending) return <p className="muted">Loading...</p>;
  if (log.isError) return <p className="field-error">{messageOf(log.error)}</p>;
  if (!log.data.data.length) return <p className="muted">Chưa có lỗi hay nghi vấn nào.</p>;
  return (
    <ul className="source-log" aria-label="Nhật ký nguồn">
      {log.data.data.map((line) => (
        <li key={line.id}>
          <span className={`badge ${line.level === 'error' ? 'badge-bad' : 'badge-wait'}`}>
            {line.level === 'error' ? 'lỗi' : 'nghi vấn'}
          </span>{' '}
          <span className="muted">{formatDateTime(line.at)}</span> {line.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * /admin/nguon-phim (admin): "Nguồn phim" — every source the crawler reads: family, base URL, priority (up/down),
 * on/off, last crawl, its films, errors in the last 24 h, whether it answers now (checked as the page opens), and a
 * down source's back-off. Add a source by its base URL; rename one (its servers carry the new name).
 */
export function SourcesPage() {
  usePageMeta({ title: `${SOURCE_TEXTS.title} | Quản trị`, robots: 'noindex' });
  const queryClient = useQueryClient();
  const list = useQuery(sourcesQuery());
  const [checks, setChecks] = useState<Checks>({});
  const [openLog, setOpenLog] = useState<number | null>(null);
  const [baseUrl, setBaseUrl] = useState('');
  const [name, setName] = useState('');
  const [family, setFamily] = useState<SourceFamilyName | ''>('');
  const [formError, setFormError] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'sources'] });

  const checkAll = useMutation({
    mutationFn: checkAllSources,
    onMutate: () => setChecks(Object.fromEntries((list.data?.data ?? []).filter((s) => s.enabled).map((s) => [s.id, 'checking' as const]))),
    onSuccess: (res) => {
      setChecks(Object.fromEntries(res.data.map((c) => [c.id, c])));
      refresh();
    },
    onError: (error) => {
      setChecks({});
      toast.error('Không kiểm tra được nguồn phim', { description: messageOf(error) });
    },
  });
  const checkOne = useMutation({
    mutationFn: (id: number) => checkSource(id),
    onMutate: (id) => setChecks((c) => ({ ...c, [id]: 'checking' })),
    onSuccess: (res) => {
      setChecks((c) => ({ ...c, ...Object.fromEntries(res.data.map((r) => [r.id, r])) }));
      refresh();
    },
    onError: (error, id) => {
      setChecks((c) => {
        const { [id]: _, ...rest } = c;
        return rest;
      });
      toast.error('Không kiểm tra được nguồn phim', { description: messageOf(error) });
    },
  });
  // Whether each source answers now: asked once as the page opens.
  const loaded = list.isSuccess;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the list first arrives.
  useEffect(() => {
    if (loaded) checkAll.mutate();
  }, [loaded]);

  const update = useMutation({
    mutationFn: ({ id, change }: { id: number; change: Parameters<typeof updateSource>[1] }) => updateSource(id, change),
    onSuccess: () => {
      toast.success(SOURCE_TEXTS.saved);
      refresh();
    },
    onError: (error) => toast.error('Không lưu được nguồn phim', { description: messageOf(error) }),
  });
  const create = useMutation({
    mutationFn: () =>
      createSource({ baseUrl: baseUrl.trim(), ...(name.trim() ? { name: name.trim() } : {}), ...(family ? { family } : {}) }),
    onSuccess: (res) => {
      toast.success(`${SOURCE_TEXTS.created}: ${res.data.name}`);
      setBaseUrl('');
      setName('');
      setFamily('');
      refresh();
      checkOne.mutate(res.data.id);
    },
    onError: (error) => setFormError(messageOf(error)),
  });

  const sources = list.data?.data ?? [];
  /** Swaps the priority with the neighbour above (-1) or below (+1). */
  const move = async (index: number, by: -1 | 1) => {
    const a = sources[index];
    const b = sources[index + by];
    if (!a || !b) return;
    const [pa, pb] = a.priority === b.priority ? [b.priority + by, a.priority] : [b.priority, a.priority];
    try {
      await updateSource(a.id, { priority: Math.max(0, pa) });
      await updateSource(b.id, { priority: Math.max(0, pb) });
      toast.success(SOURCE_TEXTS.saved);
    } catch (error) {
      toast.error('Không đổi được thứ tự', { description: messageOf(error) });
    }
    refresh();
  };
  const rename = (source: SourceDto) => {
    const next = window.prompt(`Tên mới của nguồn "${source.name}" (hiện bên cạnh các server của nó):`, source.name)?.trim();
    if (next && next !== source.name) update.mutate({ id: source.id, change: { name: next } });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(baseUrl.trim())) {
      setFormError('Vui lòng nhập địa chỉ API của nguồn (http:// hoặc https://).');
      return;
    }
    setFormError('');
    create.mutate();
  };

  return (
    <section>
      <AdminHeading title={SOURCE_TEXTS.title}>
        <button type="button" className="btn btn-ghost btn-sm" disabled={checkAll.isPending} onClick={() => checkAll.mutate()}>
          Kiểm tra tất cả
        </button>
        <RefreshButton query={list} />
      </AdminHeading>
      <p className="muted" style={{ marginBottom: 12 }}>
        Phim trùng giữa các nguồn được gộp thành một phim có server của mọi nguồn. Thông tin phim lấy theo nguồn đứng trước; nguồn thu thập
        lỗi 3 lần liên tiếp bị đánh dấu "{SOURCE_TEXTS.down}", server của nó xếp cuối, và tự hoạt động lại khi nguồn trả lời.
      </p>
      {list.isError && (
        <p className="field-error" role="alert">
          {messageOf(list.error)}
        </p>
      )}
      <div className="admin-table-wrap">
        <table className="admin-table" aria-label={SOURCE_TEXTS.title}>
          <thead>
            <tr>
              <th>Thứ tự</th>
              <th>Tên</th>
              <th>Họ nguồn</th>
              <th>Địa chỉ</th>
              <th>Trạng thái</th>
              <th>Phản hồi</th>
              <th>Lần thu thập cuối</th>
              <th className="num">Số phim</th>
              <th className="num">Lỗi 24 giờ</th>
              <th>Bật</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sources.map((s, i) => (
              <tr key={s.id} data-source={s.id}>
                <td>
                  <span className="num">{i + 1}</span>{' '}
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={`Đưa ${s.name} lên`}
                    disabled={i === 0}
                    onClick={() => void move(i, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    aria-label={`Đưa ${s.name} xuống`}
                    disabled={i === sources.length - 1}
                    onClick={() => void move(i, 1)}
                  >
                    ↓
                  </button>
                </td>
                <td>
                  <strong>{s.name}</strong>
                  {s.configured && <span className="muted"> (cấu hình)</span>}
                </td>
                <td>
                  <select
                    className="admin-select"
                    aria-label={`Họ nguồn của ${s.name}`}
                    value={s.family ?? ''}
                    onChange={(e) => e.target.value && update.mutate({ id: s.id, change: { family: e.target.value as SourceFamilyName } })}
                  >
                    <option value="">Chưa nhận biết</option>
                    {SOURCE_FAMILIES.map((f) => (
                      <option key={f} value={f}>
                        {SOURCE_FAMILY_TEXT[f]}
                        {s.family === f && !s.familyGiven ? ' (tự nhận biết)' : ''}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="muted">{s.baseUrl}</td>
                <td>
                  <State source={s} />
                </td>
                <td>
                  <Answering source={s} check={checks[s.id]} />
                </td>
                <td>
                  {s.lastRun ? (
                    <div>
                      <span className={`badge ${RUN_STATE[s.lastRun.state].badge}`}>{RUN_STATE[s.lastRun.state].text}</span>
                      <div className="muted">{formatDateTime(s.lastRun.startedAt)}</div>
                      <div className="muted">
                        mới {s.lastRun.filmsNew} · gộp {s.lastRun.filmsMerged} · lỗi {s.lastRun.filmsFailed}
                      </div>
                    </div>
                  ) : (
                    <span className="muted">Chưa thu thập</span>
                  )}
                </td>
                <td className="num">{formatNumber(s.films)}</td>
                <td className="num">{formatNumber(s.errors24h)}</td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Bật ${s.name}`}
                    checked={s.enabled}
                    onChange={(e) => update.mutate({ id: s.id, change: { enabled: e.target.checked } })}
                  />
                </td>
                <td>
                  <div className="admin-toolbar">
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      onClick={() => checkOne.mutate(s.id)}
                      disabled={checks[s.id] === 'checking'}
                    >
                      Kiểm tra
                    </button>
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => rename(s)}>
                      Đổi tên
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      aria-expanded={openLog === s.id}
                      onClick={() => setOpenLog(openLog === s.id ? null : s.id)}
                    >
                      Nhật ký
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && sources.length === 0 && <p className="admin-empty">Chưa có nguồn phim nào.</p>}
        {list.isPending && <p className="admin-empty">Loading...</p>}
      </div>
      {openLog !== null && (
        <div className="admin-card">
          <h2>Nhật ký: {sources.find((s) => s.id === openLog)?.name}</h2>
          <SourceLog id={openLog} />
        </div>
      )}
      <form className="admin-card" onSubmit={submit} noValidate aria-label="Thêm nguồn phim">
        <h2>Thêm nguồn phim</h2>
        <div className="admin-toolbar">
          <label className="admin-field">
            Địa chỉ API
            <input
              className="admin-input"
              type="url"
              placeholder="https://phimapi.com"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          </label>
          <label className="admin-field">
            Tên hiển thị (không bắt buộc)
            <input className="admin-input" value={name} maxLength={40} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="admin-field">
            Họ nguồn
            <select className="admin-select" value={family} onChange={(e) => setFamily(e.target.value as SourceFamilyName | '')}>
              <option value="">Tự nhận biết</option>
              {SOURCE_FAMILIES.map((f) => (
                <option key={f} value={f}>
                  {SOURCE_FAMILY_TEXT[f]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {formError && (
          <p className="field-error" role="alert">
            {formError}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          Thêm nguồn
        </button>
      </form>
    </section>
  );
}
