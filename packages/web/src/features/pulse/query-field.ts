import { parsePulseQuery, PULSE_INVALID_FORMAT } from '@sluice/api';

/** Spec 000 §9: the custom pulse query's blur delay (the metric list stays long enough to be clicked). */
export const QUERY_BLUR_DELAY_MS = 300;

/** "show" is disabled when the query is empty or invalid (spec 000 §5). */
export const canShow = (text: string): boolean => text.trim() !== '' && parsePulseQuery(text) !== undefined;

/** The field's message for the text last checked (after the input debounce): "invalid format" or none. */
export const queryError = (checked: string): string | undefined =>
  checked.trim() === '' || parsePulseQuery(checked) ? undefined : PULSE_INVALID_FORMAT;

/**
 * The query after a metric is picked from the help list: the metric replaces the current one,
 * keeping the group, period and tags typed so far; text that has no recognisable metric becomes the
 * metric alone.
 */
export function withMetric(text: string, metric: string): string {
  const trimmed = text.trim();
  const brace = trimmed.indexOf('{');
  const head = brace >= 0 ? trimmed.slice(0, brace) : trimmed;
  const tags = brace >= 0 ? trimmed.slice(brace) : '';
  const colon = head.lastIndexOf(':');
  const candidate = `${colon >= 0 ? head.slice(0, colon + 1) : ''}${metric}${tags}`;
  if (parsePulseQuery(candidate)) return candidate;
  // A period whose aggregator fits the old metric only: keep the group and tags, drop the period.
  const group = head.split(':')[0];
  const grouped = `${group}:${metric}${tags}`;
  if (head.includes(':') && parsePulseQuery(grouped)) return grouped;
  return parsePulseQuery(`${metric}${tags}`) ? `${metric}${tags}` : metric;
}
