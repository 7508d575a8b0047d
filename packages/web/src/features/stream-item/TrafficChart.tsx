import { Text } from '@mantine/core';
import { trafficAxisLabel } from '@sluice/api';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type TrafficSeries, usePulseTraffic } from './use-pulse-traffic.js';

/** Spec 001 §9: chart height 150 px. */
const HEIGHT_PX = 150;
const COLORS = ['#228be6', '#40c057'];

/** uPlot's data: shared times (s) and each series' bits per second (the pulse sends kbit/s). */
function toData(series: TrafficSeries): uPlot.AlignedData {
  const times = [...new Set(series.flatMap((s) => s.points.map(([t]) => t)))].sort((a, b) => a - b);
  const values = series.map((s) => {
    const byTime = new Map(s.points);
    return times.map((t) => (byTime.get(t) ?? 0) * 1000);
  });
  return [times.map((t) => t / 1000), ...values];
}

/** The stream's traffic per minute (spec 001 §2 Overview); 'Loading...' until data arrives. */
export function TrafficChart({ name }: { name: string }) {
  const series = usePulseTraffic(name);
  if (!series) return <Text size="sm">Loading...</Text>;
  return <TrafficPlot series={series} />;
}

function TrafficPlot({ series }: { series: TrafficSeries }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const labels = series.map((s) => s.label).join('\n');

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart = new uPlot(
      {
        width: element.clientWidth || 600,
        height: HEIGHT_PX,
        series: [{}, ...labels.split('\n').map((label, i) => ({ label, stroke: COLORS[i % COLORS.length] }))],
        axes: [{}, { values: (_u, ticks) => ticks.map(trafficAxisLabel) }],
      },
      [[]],
      element,
    );
    plot.current = chart;
    return () => {
      chart.destroy();
      plot.current = null;
    };
  }, [labels]);

  useEffect(() => plot.current?.setData(toData(series)), [series, labels]);
  return <div ref={box} aria-label="traffic chart" />;
}
