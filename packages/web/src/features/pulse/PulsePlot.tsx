import type { PulseMetricKind } from '@sluice/api';
import { trafficAxisLabel } from '@sluice/api';
import { Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { isPercent, unitOf } from './board.js';
import type { PlotData } from './series-data.js';

const HEIGHT_PX = 160;
const COLORS = ['#228be6', '#40c057', '#fd7e14', '#be4bdb', '#fa5252', '#15aabf'];

function axisValues(kind: PulseMetricKind): (u: uPlot, ticks: number[]) => string[] {
  if (kind === 'traffic') return (_u, ticks) => ticks.map(trafficAxisLabel);
  const unit = unitOf(kind);
  return (_u, ticks) =>
    ticks.map((t) => `${Math.round(t * 100) / 100}${unit && unit !== '%' ? ` ${unit}` : unit}`);
}

/**
 * One panel of a graph, drawn by uPlot. The chart is made once per set of lines and fed new data
 * as it comes; `data-points` counts the points drawn (what grows while the panel is live).
 */
export function PulsePlot({
  graph,
  panel,
  spanMs,
  kind,
  plot,
}: {
  graph: string;
  panel: string;
  /** The time the panel covers, ending at its newest point. */
  spanMs: number;
  kind: PulseMetricKind;
  plot?: PlotData;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const names = plot?.labels.join('\n');

  useEffect(() => {
    const element = box.current;
    if (!element || names === undefined) return;
    const made = new uPlot(
      {
        width: element.clientWidth || 400,
        height: HEIGHT_PX,
        series: [{}, ...names.split('\n').map((n, i) => ({ label: n, stroke: COLORS[i % COLORS.length] }))],
        scales: {
          // Set with each data (below): the whole span even while the store holds only a minute.
          x: { time: true, auto: false },
          ...(isPercent(kind) ? { y: { range: [0, 100] } } : {}),
        },
        axes: [{}, { values: axisValues(kind), size: 80 }],
      },
      [[]],
      element,
    );
    chart.current = made;
    const resize = new ResizeObserver(() =>
      made.setSize({ width: element.clientWidth || 400, height: HEIGHT_PX }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      made.destroy();
      chart.current = null;
    };
  }, [names, kind, spanMs]);

  useEffect(() => {
    const made = chart.current;
    if (!plot || !made) return;
    made.setData(plot.data);
    const newest = plot.data[0][plot.data[0].length - 1] ?? Date.now() / 1000;
    made.setScale('x', { min: newest - spanMs / 1000, max: newest });
  }, [plot, names, spanMs]);

  return (
    <div
      role="group"
      aria-label={`${graph}, ${panel}`}
      data-points={plot?.points ?? 0}
      style={{ minWidth: 0 }}
    >
      <Text size="xs" c="dimmed">
        {panel}
      </Text>
      {!plot && <Text size="sm">Loading...</Text>}
      <div ref={box} />
    </div>
  );
}
