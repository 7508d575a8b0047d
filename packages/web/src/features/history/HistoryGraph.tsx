import { trafficAxisLabel } from '@sluice/api';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Spec 001 §9: history graph 400 px. */
const HEIGHT_PX = 400;
const COLORS: Record<string, string> = { input: '#228be6', output: '#40c057', clients: '#fd7e14' };

import type { PulseSeries } from './pulse-data.js';

/** uPlot's data: shared times (s); traffic series in bits per second (the pulse sends kbit/s), clients as counted. */
function toData(series: PulseSeries): uPlot.AlignedData {
  const times = [...new Set(series.flatMap((s) => s.points.map(([t]) => t)))].sort((a, b) => a - b);
  const values = series.map((s) => {
    const byTime = new Map(s.points);
    const factor = s.label === 'clients' ? 1 : 1000;
    return times.map((t) => (byTime.get(t) ?? 0) * factor);
  });
  return [times.map((t) => t / 1000), ...values];
}

/** The per-minute traffic and clients of the history range, traffic on the left axis, clients on the right. */
export function HistoryGraph({ series }: { series: PulseSeries }) {
  const box = useRef<HTMLDivElement>(null);
  const labels = series.map((s) => s.label).join('\n');

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const names = labels.split('\n');
    const chart = new uPlot(
      {
        width: element.clientWidth || 800,
        height: HEIGHT_PX,
        series: [
          {},
          ...names.map((label) => ({
            label,
            stroke: COLORS[label] ?? '#868e96',
            scale: label === 'clients' ? 'clients' : 'bps',
          })),
        ],
        axes: [
          {},
          { scale: 'bps', values: (_u, ticks) => ticks.map(trafficAxisLabel) },
          { scale: 'clients', side: 1, grid: { show: false } },
        ],
      },
      toData(series),
      element,
    );
    return () => chart.destroy();
  }, [labels, series]);

  return <div ref={box} aria-label="history graph" style={{ minHeight: HEIGHT_PX }} />;
}
