import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';

// Only the pieces the two charts use (tree-shaken); this module is loaded lazily by the admin pages.
Chart.register(LineController, LineElement, PointElement, BarController, BarElement, CategoryScale, LinearScale, Tooltip, Filler);

export interface SeriesChartProps {
  type: 'line' | 'bar';
  labels: string[];
  values: number[];
  /** Series name in the tooltip. */
  label: string;
  /** Spoken summary for screen readers (the canvas itself says nothing). */
  summary: string;
  formatValue?: (n: number) => string;
}

/** One series over time, drawn with chart.js on a canvas. */
export default function SeriesChart({ type, labels, values, label, summary, formatValue }: SeriesChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type,
      data: {
        labels,
        datasets: [
          {
            label,
            data: values,
            borderColor: '#ff6b73',
            backgroundColor: type === 'bar' ? 'rgba(229, 9, 20, 0.65)' : 'rgba(229, 9, 20, 0.18)',
            fill: type === 'line',
            tension: 0.25,
            pointRadius: 2,
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: {
          x: { ticks: { color: '#a8b0c2', maxRotation: 0, autoSkip: true }, grid: { color: 'rgba(255,255,255,0.05)' } },
          y: {
            beginAtZero: true,
            ticks: { color: '#a8b0c2', precision: 0, callback: (v) => (formatValue ? formatValue(Number(v)) : String(v)) },
            grid: { color: 'rgba(255,255,255,0.07)' },
          },
        },
        plugins: {
          tooltip: { callbacks: { label: (ctx) => `${label}: ${formatValue ? formatValue(Number(ctx.parsed.y)) : ctx.parsed.y}` } },
        },
      },
    });
    return () => chart.destroy();
  }, [type, labels, values, label, formatValue]);
  return (
    <div className="chart-box">
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
