/**
 * The DVR timeline's geometry (spec 001 §9: 3-minute cells of 6 px in a 500 px wide strip), pure so
 * it can be tested without a browser. Times are UNIX seconds, as dvr_info gives them.
 */
export const CELL_SECONDS = 180;
export const CELL_WIDTH_PX = 6;
export const TIMELINE_WIDTH_PX = 500;
/** A year of cells: more means a bogus `from` (0, say) and a strip no browser could draw. */
export const MAX_CELLS = (366 * 86400) / CELL_SECONDS;

export interface ArchiveRange {
  from: number;
  duration: number;
}

/** Consecutive cells that are all filled (archive) or all empty (a gap). */
export interface CellRun {
  firstCell: number;
  cellCount: number;
  filled: boolean;
}

export interface TimelineLayout {
  /** Start of the first cell: the archive's start rounded down to a whole cell. */
  firstCellS: number;
  cellCount: number;
  widthPx: number;
  runs: CellRun[];
}

const cellOf = (timeS: number, firstCellS: number) => Math.floor((timeS - firstCellS) / CELL_SECONDS);

/**
 * The cells from the archive's start to now, each filled when any range covers part of it. Throws
 * on input it cannot draw (the timeline then hides itself, spec 001 §8).
 */
export function timelineLayout(fromS: number, nowS: number, ranges: readonly ArchiveRange[]): TimelineLayout {
  if (!Number.isFinite(fromS) || !Number.isFinite(nowS))
    throw new Error(`bad timeline bounds ${fromS}..${nowS}`);
  const firstCellS = Math.floor(fromS / CELL_SECONDS) * CELL_SECONDS;
  const lastEndS = Math.max(nowS, archiveEndS(ranges));
  const cellCount = Math.max(1, cellOf(lastEndS, firstCellS) + 1);
  if (cellCount > MAX_CELLS) throw new Error(`timeline of ${cellCount} cells from ${fromS} is too long`);
  const filled = new Uint8Array(cellCount);
  for (const range of ranges) {
    if (!(range.duration > 0)) continue;
    const first = Math.max(0, cellOf(range.from, firstCellS));
    // The range's end is exclusive: a range ending on a cell boundary does not reach the next cell.
    const last = Math.min(
      cellCount - 1,
      Math.ceil((range.from + range.duration - firstCellS) / CELL_SECONDS) - 1,
    );
    filled.fill(1, first, last + 1);
  }
  const runs: CellRun[] = [];
  for (let cell = 0; cell < cellCount; cell++) {
    const isFilled = filled[cell] === 1;
    const run = runs[runs.length - 1];
    if (run?.filled === isFilled) run.cellCount++;
    else runs.push({ firstCell: cell, cellCount: 1, filled: isFilled });
  }
  return { firstCellS, cellCount, widthPx: cellCount * CELL_WIDTH_PX, runs };
}

/** The cell under a point `xPx` from the strip's left edge. */
export const cellAtPx = (layout: TimelineLayout, xPx: number): number =>
  Math.min(layout.cellCount - 1, Math.max(0, Math.floor(xPx / CELL_WIDTH_PX)));

export const cellStartS = (layout: TimelineLayout, cell: number): number =>
  layout.firstCellS + cell * CELL_SECONDS;

/**
 * The moment a click on the cell starting at `cellS` plays from: the cell's start, or where the
 * archive begins inside the cell; undefined for a cell with no archive (a gap).
 */
export function playFromS(cellS: number, ranges: readonly ArchiveRange[]): number | undefined {
  const cellEndS = cellS + CELL_SECONDS;
  let start: number | undefined;
  for (const r of ranges) {
    if (r.from >= cellEndS || r.from + r.duration <= cellS) continue;
    const inCell = Math.max(cellS, r.from);
    if (start === undefined || inCell < start) start = inCell;
  }
  return start;
}

/** The end of the archive: the latest range end. */
export const archiveEndS = (ranges: readonly ArchiveRange[]): number =>
  ranges.reduce((end, r) => Math.max(end, r.from + r.duration), 0);

/** The strip's scroll position that shows its newest end. */
export const newestScrollPx = (layout: TimelineLayout): number =>
  Math.max(0, layout.widthPx - TIMELINE_WIDTH_PX);
