import type { SourceEntry } from '@sluice/api';
import { useConfigField } from '../../global-config/global-fields.js';
import { type RawSource, toEntry } from './source-entries.js';

/**
 * One source entry of a stream, edited through the whole urls list (the edits replace arrays
 * whole). `set` changes one option; null or undefined removes it.
 */
export function useSourceEntry(name: string, index: number) {
  const field = useConfigField<RawSource[]>(['streams', name, 'urls']);
  const entries = (field.value ?? []).map(toEntry);
  const entry = entries[index];
  const replace = (next: SourceEntry) => field.set(entries.map((e, i) => (i === index ? next : e)));
  const set = (key: string, value: unknown) => {
    if (!entry) return;
    const next: Record<string, unknown> = { ...entry };
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
    replace(next as SourceEntry);
  };
  return { entry, set, replace };
}
