import { Box } from '@mantine/core';
import { type MouseEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  type ArchiveRange,
  CELL_SECONDS,
  CELL_WIDTH_PX,
  cellAtPx,
  cellStartS,
  newestScrollPx,
  playFromS,
  TIMELINE_WIDTH_PX,
  timelineLayout,
} from './timeline-geometry.js';

const BAR_TOP_PX = 16;
const BAR_HEIGHT_PX = 20;
const HEIGHT_PX = BAR_TOP_PX + BAR_HEIGHT_PX + 2;
const CELLS_PER_HOUR = 3600 / CELL_SECONDS;

/** Now in seconds, moved on once a cell: the strip grows by a cell at a time. */
function useNowS(): number {
  const [nowS, setNowS] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = setInterval(() => setNowS(Date.now() / 1000), (CELL_SECONDS * 1000) / 6);
    return () => clearInterval(timer);
  }, []);
  return nowS;
}

const clock = (timeS: number) =>
  new Date(timeS * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * The archive timeline (spec 001 §2, §9): 3-minute cells of 6 px from the archive's start to now in
 * a 500 px strip that scrolls, opened at the newest end; cells with archive filled, gaps empty.
 * Clicking a filled cell plays from that moment (`onPlay` gets UNIX seconds).
 */
export function DvrTimeline({
  fromS,
  ranges,
  playingS,
  onPlay,
}: {
  fromS: number;
  ranges: readonly ArchiveRange[];
  playingS: number | undefined;
  onPlay: (fromS: number) => void;
}) {
  const nowS = useNowS();
  const layout = useMemo(() => timelineLayout(fromS, nowS, ranges), [fromS, nowS, ranges]);
  const strip = useRef<HTMLDivElement>(null);
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || !strip.current) return;
    opened.current = true;
    strip.current.scrollLeft = newestScrollPx(layout);
  }, [layout]);

  const click = (event: MouseEvent<SVGSVGElement>) => {
    const xPx = event.clientX - event.currentTarget.getBoundingClientRect().left;
    const from = playFromS(cellStartS(layout, cellAtPx(layout, xPx)), ranges);
    if (from !== undefined) onPlay(from);
  };

  const hourTicks: number[] = [];
  const firstHourCell =
    Math.ceil(layout.firstCellS / 3600) * CELLS_PER_HOUR - layout.firstCellS / CELL_SECONDS;
  for (let cell = firstHourCell; cell < layout.cellCount; cell += CELLS_PER_HOUR) hourTicks.push(cell);

  return (
    <Box
      ref={strip}
      w={TIMELINE_WIDTH_PX}
      style={{ overflowX: 'auto' }}
      role="group"
      aria-label="DVR timeline"
    >
      <svg
        width={layout.widthPx}
        height={HEIGHT_PX}
        onClick={click}
        style={{ display: 'block', cursor: 'pointer' }}
      >
        {hourTicks.map((cell) => (
          <text key={cell} x={cell * CELL_WIDTH_PX + 2} y={11} fontSize={10} fill="currentColor">
            {clock(cellStartS(layout, cell))}
          </text>
        ))}
        {layout.runs.map((run) => (
          <rect
            key={run.firstCell}
            data-kind={run.filled ? 'archive' : 'gap'}
            x={run.firstCell * CELL_WIDTH_PX}
            y={BAR_TOP_PX}
            width={run.cellCount * CELL_WIDTH_PX}
            height={BAR_HEIGHT_PX}
            fill={run.filled ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-1)'}
          >
            <title>
              {`${run.filled ? 'archive' : 'no archive'} ${clock(cellStartS(layout, run.firstCell))}–${clock(
                cellStartS(layout, run.firstCell + run.cellCount),
              )}`}
            </title>
          </rect>
        ))}
        {playingS !== undefined && (
          <rect
            data-kind="playing"
            x={((playingS - layout.firstCellS) / CELL_SECONDS) * CELL_WIDTH_PX}
            y={BAR_TOP_PX - 2}
            width={2}
            height={BAR_HEIGHT_PX + 4}
            fill="var(--mantine-color-red-6)"
            pointerEvents="none"
          />
        )}
      </svg>
    </Box>
  );
}
