import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  ADMIN_TEXTS,
  CRAWL_CATEGORY_NAMES,
  SCHEDULE_STATUS_TEXT,
  SCHEDULE_UTC_OFFSET_MINUTES,
  type ScheduleStatus,
  scheduleRunAt,
} from '../../../../../worker/schemas/admin';
import { formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { crawlRunQuery, crawlRunsQuery, createSchedule, deleteSchedule, runProgress, schedulesQuery, startCrawl } from '../api/crawl-api';
import { sourcesQuery } from '../api/sources-api';
import { AdminHeading } from './admin-layout';
import { RUN_STATE, RunsTable } from './runs-table';

const STATUS_BADGE: Record<ScheduleStatus, string> = { 1: 'badge-wait', 2: 'badge-ok', 3: 'badge-bad', 4: 'badge-run' };

/** Now in Asia/Ho_Chi_Minh as the schedule form's date ('YYYY-MM-DD') and time ('HH:mm') fields. */
function vietnamNow(offsetMinutes = 0): { date: string; time: string } {
  const iso = new Date(Date.now() + (SCHEDULE_UTC_OFFSET_MINUTES + offsetMinutes) * 60_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** The 27 crawl categories: choose one, choose all, no duplicates, remove a chosen one. */
function CategoryChooser({ chosen, onChange }: { chosen: string[]; onChange: (next: string[]) => void }) {
  const [pick, setPick] = useState('');
  const add = (name: string) => {
    if (name && !chosen.includes(name)) onChange([...chosen, name]);
    setPick('');
  };
  return (
    <div className="admin-field">
      <label htmlFor="crawl-category">Thể loại cần thu thập</label>
      <div className="admin-toolbar" style={{ marginBottom: 6 }}>
        <select
          id="crawl-category"
          className="admin-select"
          style={{ width: 'auto', minWidth: 240 }}
          value={pick}
          onChange={(e) => add(e.target.value)}
        >
          <option value="">— Chọn thể loại —</option>
          {CRAWL_CATEGORY_NAMES.map((name) => (
            <option key={name} value={name} disabled={chosen.includes(name)}>
              {name}
            </option>
          ))}
        </select>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange([...CRAWL_CATEGORY_NAMES])}>
          Chọn tất cả
        </button>
        {chosen.length > 0 && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange([])}>
            Bỏ chọn hết
          </button>
        )}
      </div>
      <ul className="chip-list" aria-label="Thể loại đã chọn" style={{ listStyle: 'none', padding: 0, margin: 0, width: 'auto' }}>
        {chosen.map((name) => (
          <li key={name} className="chip">
            {name}
            <button type="button" aria-label={`Bỏ ${name}`} onClick={() => onChange(chosen.filter((c) => c !== name))}>
              ×
            </button>
          </li>
        ))}
        {chosen.length === 0 && <li className="muted">Chưa chọn thể loại nào.</li>}
      </ul>
    </div>
  );
}

/**
 * The live progress of one crawl: its runs (one per source, crawled one after the other), polled every second until
 * they end, as one bar; one toast when all have ended.
 */
function RunProgress({ runIds }: { runIds: number[] }) {
  const queryClient = useQueryClient();
  const runs = useQueries({ queries: runIds.map((id) => crawlRunQuery(id)) });
  const loaded = runs.map((r) => r.data).filter((r) => r !== undefined);
  const state =
    loaded.length < runIds.length
      ? undefined
      : loaded.some((r) => r.state === 'running')
        ? 'running'
        : loaded.some((r) => r.state === 'done')
          ? 'done'
          : 'failed';
  const announced = useRef(false);
  const errors = loaded.map((r) => r.error).filter((e): e is string => !!e);
  useEffect(() => {
    if (!state || state === 'running' || announced.current) return;
    announced.current = true;
    const ids = runIds.map((id) => `#${id}`).join(', ');
    if (state === 'done') toast.success(`Thu thập xong (lượt ${ids})`);
    else toast.error(`Lượt thu thập ${ids} thất bại`, { description: errors[0] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'crawl-runs'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'films'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'sources'] });
  }, [state, runIds, errors, queryClient]);

  if (!state) return <p className="muted">Loading...</p>;
  const percent = Math.round((loaded.reduce((sum, r) => sum + runProgress(r), 0) / loaded.length) * 100);
  const sum = (key: 'filmsNew' | 'filmsMerged' | 'filmsUpdated' | 'filmsSkipped' | 'filmsFailed' | 'pagesDone') =>
    loaded.reduce((total, r) => total + r[key], 0);
  const totals = loaded.map((r) => r.pagesTotal);
  return (
    <div className="crawl-progress" data-state={state}>
      <div className="admin-toolbar" style={{ justifyContent: 'space-between', marginBottom: 6 }}>
        <strong>
          Lượt {runIds.map((id) => `#${id}`).join(', ')}: <span className={`badge ${RUN_STATE[state].badge}`}>{RUN_STATE[state].text}</span>
        </strong>
        <span className="muted">
          {sum('pagesDone')}/{totals.some((t) => t === null) ? '?' : totals.reduce((a, b) => a! + b!, 0)} trang
          {loaded.length > 1 ? ` · ${loaded.length} nguồn` : ''}
        </span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label="Tiến độ thu thập"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div style={{ width: `${percent}%` }} />
      </div>
      <p className="muted" style={{ marginTop: 6 }}>
        {percent}% · mới {formatNumber(sum('filmsNew'))} · gộp {formatNumber(sum('filmsMerged'))} · cập nhật{' '}
        {formatNumber(sum('filmsUpdated'))} · bỏ qua {formatNumber(sum('filmsSkipped'))} · lỗi {formatNumber(sum('filmsFailed'))}
      </p>
      {errors.map((e) => (
        <p key={e} className="field-error">
          {e}
        </p>
      ))}
    </div>
  );
}

/** Which sources a crawl reads: every enabled one in priority order (the default), or one. */
function SourceChooser({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const sources = useQuery(sourcesQuery());
  return (
    <label className="admin-field" style={{ marginTop: 12 }}>
      Nguồn phim
      <select
        className="admin-select"
        style={{ width: 'auto', minWidth: 240 }}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)}
      >
        <option value="">Tất cả nguồn đang bật (theo thứ tự ưu tiên)</option>
        {sources.data?.data.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name} ({s.baseUrl}){s.down ? ' · Không phản hồi' : ''}
            {s.enabled ? '' : ' · đang tắt'}
          </option>
        ))}
      </select>
    </label>
  );
}

/** /admin/auto_crawlphim (admin): crawl now with live progress, schedule crawls, the schedules and the last runs. */
export function AutoCrawlPage() {
  usePageMeta({ title: 'Thu thập tự động | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>([]);
  const [source, setSource] = useState<number | undefined>(undefined);
  const [runIds, setRunIds] = useState<number[] | null>(null);
  const initial = vietnamNow(5);
  const [date, setDate] = useState(initial.date);
  const [time, setTime] = useState(initial.time);
  const [formError, setFormError] = useState('');
  const schedules = useQuery(schedulesQuery());
  const runs = useQuery(crawlRunsQuery());

  const crawl = useMutation({
    mutationFn: () => startCrawl(chosen, source),
    onSuccess: (res) => {
      setRunIds(res.runIds ?? [res.runId]);
      // The choices belonged to this crawl: the schedule form starts empty rather than inheriting them.
      setChosen([]);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'crawl-runs'] });
    },
    onError: (error) => toast.error(ADMIN_TEXTS.scheduleFailed, { description: messageOf(error) }),
  });

  const schedule = useMutation({
    mutationFn: () => createSchedule(chosen, date, time, source),
    onSuccess: (res) => {
      if (res.status !== 200) {
        toast.error(ADMIN_TEXTS.scheduleFailed);
        return;
      }
      toast.success(ADMIN_TEXTS.scheduleSuccess);
      setChosen([]);
      const next = vietnamNow(5);
      setDate(next.date);
      setTime(next.time);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'schedules'] });
    },
    onError: (error) => {
      const message = messageOf(error);
      if (message.includes(ADMIN_TEXTS.scheduleNotFuture)) setFormError(ADMIN_TEXTS.scheduleNotFuture);
      toast.error(ADMIN_TEXTS.scheduleFailed, { description: message });
    },
  });

  const remove = useMutation({
    mutationFn: (id: number) => deleteSchedule(id),
    onSuccess: () => {
      toast.success('Đã xoá lịch thu thập');
      void queryClient.invalidateQueries({ queryKey: ['admin', 'schedules'] });
    },
    onError: (error) => toast.error(ADMIN_TEXTS.scheduleFailed, { description: messageOf(error) }),
  });

  const crawlNow = () => {
    if (chosen.length === 0) {
      setFormError('Vui lòng chọn ít nhất một thể loại.');
      return;
    }
    setFormError('');
    crawl.mutate();
  };

  const submitSchedule = (e: FormEvent) => {
    e.preventDefault();
    if (chosen.length === 0 || !date || !time) {
      setFormError(ADMIN_TEXTS.scheduleIncomplete);
      return;
    }
    const at = scheduleRunAt(date, time);
    if (!(at > Date.now())) {
      setFormError(ADMIN_TEXTS.scheduleNotFuture);
      return;
    }
    setFormError('');
    schedule.mutate();
  };

  // A schedule that starts or ends has a crawl run to show: the runs list follows the statuses.
  const scheduleStates = schedules.data?.data.map((s) => `${s.id}:${s.status}`).join(',');
  useEffect(() => {
    if (scheduleStates !== undefined) void queryClient.invalidateQueries({ queryKey: ['admin', 'crawl-runs'] });
  }, [scheduleStates, queryClient]);

  const running = runs.data?.data.find((r) => r.state === 'running' && !runIds?.includes(r.id));

  return (
    <section>
      <AdminHeading title="Thu thập phim tự động" />
      <div className="admin-card">
        <CategoryChooser
          chosen={chosen}
          onChange={(next) => {
            setChosen(next);
            setFormError('');
          }}
        />
        <SourceChooser value={source} onChange={setSource} />
        {formError && (
          <p className="field-error" role="alert" style={{ marginTop: 10 }}>
            {formError}
          </p>
        )}
        <div className="two-cols" style={{ marginTop: 16 }}>
          <div>
            <h2>Thu thập ngay</h2>
            <button type="button" className="btn btn-primary" disabled={crawl.isPending} onClick={crawlNow}>
              {crawl.isPending ? 'Đang bắt đầu…' : 'Thu thập ngay'}
            </button>
            <div style={{ marginTop: 12 }}>
              {runIds !== null && <RunProgress key={runIds.join(',')} runIds={runIds} />}
              {runIds === null && running && <RunProgress key={running.id} runIds={[running.id]} />}
            </div>
          </div>
          <form onSubmit={submitSchedule} noValidate aria-label="Đặt lịch thu thập">
            <h2>Đặt lịch (giờ Việt Nam)</h2>
            <div className="admin-toolbar">
              <label className="admin-field">
                Ngày
                <input type="date" className="admin-input" value={date} onChange={(e) => setDate(e.target.value)} />
              </label>
              <label className="admin-field">
                Giờ
                <input type="time" className="admin-input" value={time} onChange={(e) => setTime(e.target.value)} />
              </label>
            </div>
            <button type="submit" className="btn btn-primary" disabled={schedule.isPending}>
              Đặt lịch
            </button>
          </form>
        </div>
      </div>

      <div className="admin-card">
        <h2>Lịch đã đặt</h2>
        {schedules.isError && <p className="field-error">{messageOf(schedules.error)}</p>}
        <div className="admin-table-wrap">
          <table className="admin-table" aria-label="Lịch thu thập">
            <thead>
              <tr>
                <th>#</th>
                <th>Ngày</th>
                <th>Giờ</th>
                <th>Thể loại</th>
                <th>Trạng thái</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {schedules.data?.data.map((s) => (
                <tr key={s.id} data-schedule={s.id}>
                  <td className="num">{s.id}</td>
                  <td>{s.crawl_date}</td>
                  <td>{s.crawl_time}</td>
                  <td>{s.category.join(', ')}</td>
                  <td>
                    <span className={`badge ${STATUS_BADGE[s.status]}`}>{SCHEDULE_STATUS_TEXT[s.status]}</span>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-danger btn-sm"
                      aria-label={`Xoá lịch #${s.id}`}
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Xoá lịch thu thập #${s.id}?`)) remove.mutate(s.id);
                      }}
                    >
                      Xoá
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {schedules.data?.data.length === 0 && <p className="admin-empty">Chưa có lịch nào.</p>}
        </div>
      </div>

      <div className="admin-card">
        <h2>Các lượt thu thập gần đây</h2>
        <RunsTable runs={runs.data?.data ?? []} />
      </div>
    </section>
  );
}
