/** Name, clients, bitrate, runtime, source, action (spec 000 §2 Publishing locations list). */
export const LOCATION_COLUMNS = 'minmax(160px, 2fr) 70px 100px 110px minmax(160px, 3fr) 44px';
export const COMPACT_LOCATION_COLUMNS = 'minmax(120px, 1fr) 44px';

export const locationColumnsOf = (compact: boolean) =>
  compact ? COMPACT_LOCATION_COLUMNS : LOCATION_COLUMNS;
