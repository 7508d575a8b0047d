import { Text } from '@mantine/core';
import type { SourceEntry } from '@sluice/api';
import { useState } from 'react';
import { KeyValueEditor } from '../../../components/KeyValueEditor.js';
import { RESERVED_SOURCE_KEYS } from './source-entries.js';

const extrasOf = (entry: SourceEntry) =>
  Object.fromEntries(Object.entries(entry).filter(([key]) => !RESERVED_SOURCE_KEYS.includes(key)));

/** Free key/value options of a source; the keys the source has fields for are refused (spec 001 §5). */
export function SourceExtraOptions({
  entry,
  replace,
}: {
  entry: SourceEntry;
  replace: (next: SourceEntry) => void;
}) {
  const [refused, setRefused] = useState<string[]>([]);
  const change = (record: Record<string, string> | null) => {
    const kept = Object.entries(record ?? {}).filter(([key]) => !RESERVED_SOURCE_KEYS.includes(key));
    setRefused(Object.keys(record ?? {}).filter((key) => RESERVED_SOURCE_KEYS.includes(key)));
    const base = Object.fromEntries(
      Object.entries(entry).filter(([key]) => RESERVED_SOURCE_KEYS.includes(key)),
    );
    replace({ ...base, ...Object.fromEntries(kept) } as SourceEntry);
  };
  return (
    <>
      <KeyValueEditor name="source-extra" label="Extra options" value={extrasOf(entry)} onChange={change} />
      {refused.length > 0 && (
        <Text c="red" size="sm" role="alert">
          {refused.join(', ')}: set with the fields above, not as an extra option.
        </Text>
      )}
    </>
  );
}
