// Lighthouse's total blocking time recomputed on thread time (bench/lighthouse.ts). Lighthouse multiplies
// each main-thread task's wall-clock duration by its 4× CPU slowdown, so on a shared 2-core machine a task
// that only waited for a core (its renderer competing with the browser and GPU processes and the server)
// counts as blocking. The same formula on the trace's thread time (CPU) counts only the page's own work.

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { frame?: string; data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string } };
}

export interface MainThreadCost {
  /** Σ max(0, 4 × task CPU − 50 ms) over the main-thread tasks after the first contentful paint. */
  tbt4x: number;
  /** The longest of those tasks' CPU time. */
  longest: number;
}

const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** The main-thread figures of one page load, from its trace. */
export function mainThreadCost(events: TraceEvent[], url: string): MainThreadCost {
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL === url);
  if (!nav) throw new Error(`no navigation to ${url} in the trace`);
  const frame = nav.args?.frame;
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.args?.frame === frame && e.ts >= nav.ts);
  if (!fcp) throw new Error(`no first contentful paint for ${url}`);
  const tasks = events
    .filter((e) => e.ph === 'X' && e.pid === nav.pid && e.tid === nav.tid && TASK_NAMES.has(e.name) && e.ts >= nav.ts)
    .sort((a, b) => a.ts - b.ts);
  const load: MainThreadCost = { tbt4x: 0, longest: 0 };
  let end = 0;
  for (const task of tasks) {
    if (task.ts < end) continue; // nested inside the previous top-level task
    end = task.ts + (task.dur ?? 0);
    if (task.ts < fcp.ts) continue;
    const cpu = (task.tdur ?? 0) / 1000;
    load.longest = Math.max(load.longest, cpu);
    load.tbt4x += Math.max(0, 4 * cpu - 50);
  }
  return load;
}
