/** Mirrored stream rows: name, status, clients, bitrate, runtime, actions (ignore, play). */
export const MIRRORED_COLUMNS = 'minmax(160px, 2fr) minmax(140px, 2fr) 70px 100px 110px 150px';
export const COMPACT_MIRRORED_COLUMNS = 'minmax(120px, 1fr) 150px';

export const mirroredColumnsOf = (compact: boolean) =>
  compact ? COMPACT_MIRRORED_COLUMNS : MIRRORED_COLUMNS;
