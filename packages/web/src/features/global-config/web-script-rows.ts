import type { WebScript } from '@sluice/api';
import { keyError, valueError } from '../../lib/key-value.js';

/** One editable row of the web scripts list; extra params typed as `key=value` pairs. */
export interface WebScriptRow {
  id: number;
  prefix: string;
  path: string;
  extra: string;
}

export type WebScripts = Record<string, WebScript>;

export const isEmptyScript = (row: WebScriptRow) =>
  row.prefix === '' && row.path === '' && row.extra.trim() === '';

export function formatExtra(extra: Record<string, string> | undefined): string {
  return Object.entries(extra ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

/** `a=1 b=2` → {a: '1', b: '2'}, or the first problem found. */
export function parseExtra(text: string): { extra?: Record<string, string>; error?: string } {
  const extra: Record<string, string> = {};
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const eq = token.indexOf('=');
    if (eq <= 0) return { error: 'Extra params are written as key=value.' };
    const key = token.slice(0, eq);
    const value = token.slice(eq + 1);
    const error = keyError(key) ?? valueError(value);
    if (error) return { error };
    extra[key] = value;
  }
  return Object.keys(extra).length > 0 ? { extra } : {};
}

export function scriptsToRows(scripts: WebScripts | null | undefined, nextId: () => number): WebScriptRow[] {
  return Object.entries(scripts ?? {})
    .sort(([, a], [, b]) => (a.position ?? Infinity) - (b.position ?? Infinity))
    .map(([prefix, s]) => ({ id: nextId(), prefix, path: s.path ?? '', extra: formatExtra(s.extra) }));
}

/** The rows as the config holds them: keyed by prefix, positions in row order; no rows is null. */
export function rowsToScripts(rows: readonly WebScriptRow[]): WebScripts | null {
  const scripts: WebScripts = {};
  for (const row of rows) {
    if (isEmptyScript(row)) continue;
    const { extra } = parseExtra(row.extra);
    scripts[row.prefix] = {
      prefix: row.prefix,
      path: row.path,
      ...(extra ? { extra } : {}),
      position: Object.keys(scripts).length,
    };
  }
  return Object.keys(scripts).length > 0 ? scripts : null;
}

export function scriptErrors(rows: readonly WebScriptRow[]): Map<number, string> {
  const errors = new Map<number, string>();
  const seen = new Set<string>();
  for (const row of rows) {
    if (isEmptyScript(row)) continue;
    const error =
      (row.prefix.trim() === '' ? 'Prefix is required' : undefined) ??
      (seen.has(row.prefix) ? 'this prefix is already used' : undefined) ??
      (row.path.trim() === '' ? 'Path is required' : undefined) ??
      parseExtra(row.extra).error;
    seen.add(row.prefix);
    if (error) errors.set(row.id, error);
  }
  return errors;
}
