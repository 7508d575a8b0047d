import type { PulseMetricKind } from '@sluice/api';
import { SimpleGrid, Title } from '@mantine/core';
import { useMemo } from 'react';
import { HOURS_SPAN_MS, MINUTE_SPAN_MS } from './board.js';
import { PulsePlot } from './PulsePlot.js';
import { type QuerySeries, toPlotData } from './series-data.js';

/** A graph of the board: its last-hours and last-minute panels side by side (spec 000 §2). */
export function PulseGraph({
  title,
  kind,
  hours,
  minute,
  single = false,
}: {
  title: string;
  kind: PulseMetricKind;
  hours?: QuerySeries[];
  minute?: QuerySeries[];
  /** One line only: named by its tags, not its metric. */
  single?: boolean;
}) {
  const hoursPlot = useMemo(() => hours && toPlotData(hours, kind, single), [hours, kind, single]);
  const minutePlot = useMemo(() => minute && toPlotData(minute, kind, single), [minute, kind, single]);
  return (
    <section aria-label={title}>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <PulsePlot graph={title} panel="last hours" spanMs={HOURS_SPAN_MS} kind={kind} plot={hoursPlot} />
        <PulsePlot graph={title} panel="last minute" spanMs={MINUTE_SPAN_MS} kind={kind} plot={minutePlot} />
      </SimpleGrid>
    </section>
  );
}
