/** Spec 000 §2, §9: media list item height 40 px, 10 rows preloaded beyond the visible ones. */
export const ROW_HEIGHT_PX = 40;
export const OVERSCAN_ROWS = 10;

/** Name, status, clients, bitrate, runtime, source (with its error), play/restart/delete. */
export const FULL_COLUMNS = 'minmax(140px, 2fr) minmax(170px, 2fr) 70px 100px 110px minmax(180px, 3fr) 100px';
/** Beside an open item: name, status, play/restart/delete. */
export const COMPACT_COLUMNS = 'minmax(0, 1fr) 150px 100px';

export const columnsOf = (compact: boolean) => (compact ? COMPACT_COLUMNS : FULL_COLUMNS);
