/**
 * Unit inputs (spec 000 §9 unit factors): a value in base units is shown as a whole number of one
 * unit; the number typed times the unit's factor is what is stored.
 */
export interface Unit {
  label: string;
  /** Base units in one of this unit. */
  factor: number;
}

/** Bits per second. */
export const bitrateUnits: readonly Unit[] = [
  { label: 'Kbps', factor: 1024 },
  { label: 'Mbps', factor: 1048576 },
  { label: 'Gbps', factor: 1073741824 },
];

/** Seconds. */
export const timeUnits: readonly Unit[] = [
  { label: 'seconds', factor: 1 },
  { label: 'hours', factor: 3600 },
  { label: 'days', factor: 86400 },
];

/** Bytes. */
export const sizeUnits: readonly Unit[] = [
  { label: 'KB', factor: 1024 },
  { label: 'MB', factor: 1048576 },
  { label: 'GB', factor: 1073741824 },
];

/**
 * The unit to show a value in: the largest that divides it exactly, so nothing is rounded away;
 * the default for an empty value; the smallest when none divides it.
 */
export function pickUnit(value: number | null | undefined, units: readonly Unit[], fallback: Unit): Unit {
  if (value === null || value === undefined) return fallback;
  if (value === 0) return fallback;
  const exact = [...units].reverse().find((u) => value % u.factor === 0);
  return exact ?? units[0] ?? fallback;
}

/** The whole number shown for `value` in `unit`; '' for an empty value. */
export function amountIn(value: number | null | undefined, unit: Unit): string {
  if (value === null || value === undefined) return '';
  return String(Math.round(value / unit.factor));
}

/** The stored value of a typed amount: digits only; empty gives null. */
export function valueOf(amount: string, unit: Unit): number | null {
  const digits = amount.replace(/\D+/g, '');
  return digits === '' ? null : Number.parseInt(digits, 10) * unit.factor;
}
