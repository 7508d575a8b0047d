import type { StreamStatus } from '@sluice/api';
import classes from './media-rows.module.css';
import { statusColor } from './stream-row-view.js';

/** A stream's display status as the coloured badge of its row (spec 000 §4). */
export function StatusBadge({ status }: { status: StreamStatus }) {
  const color = statusColor[status.kind];
  return (
    <span
      className={classes.badge}
      style={{
        background: `var(--mantine-color-${color}-light)`,
        color: `var(--mantine-color-${color}-light-color)`,
      }}
    >
      {status.label}
    </span>
  );
}

/** The clients, bitrate and runtime cells every media row has. */
export function FigureCells({ view }: { view: { clients: string; bitrate: string; runtime: string } }) {
  return (
    <>
      <div role="cell" className={classes.number}>
        {view.clients}
      </div>
      <div role="cell" className={`${classes.number} ${classes.cell}`}>
        {view.bitrate}
      </div>
      <div role="cell" className={classes.runtime}>
        {view.runtime}
      </div>
    </>
  );
}
