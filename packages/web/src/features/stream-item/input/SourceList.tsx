import { EditOnly } from '../../../components/EditOnly.js';
import { Stack, Title } from '@mantine/core';
import { useCallback } from 'react';
import type { LiveState } from '../../../api/live-state.js';
import { useLive } from '../../../api/use-live.js';
import { useConfigField } from '../../global-config/global-fields.js';
import { useStreamStats } from '../use-stream.js';
import { NewSourceRow } from './NewSourceRow.js';
import { moveItem, type RawSource, sourceStatus, toEntry } from './source-entries.js';
import { SourceRow } from './SourceRow.js';
import { useSwitchSource } from './use-switch-source.js';

/** The saved URLs of a stream's sources, to tell an edited row from a saved one. */
function useSavedUrls(name: string): string[] | undefined {
  const select = useCallback(
    (state: LiveState) => state.server.streams?.[name]?.urls as RawSource[] | undefined,
    [name],
  );
  return useLive(select)?.map((s) => toEntry(s).url);
}

/** The stream's sources in priority order: drag to reorder, edit, switch, open their options. */
export function SourceList({ name }: { name: string }) {
  const field = useConfigField<RawSource[]>(['streams', name, 'urls']);
  const entries = (field.value ?? []).map(toEntry);
  const saved = useSavedUrls(name);
  const stats = useStreamStats(name);
  const { locked, switchTo } = useSwitchSource(name);
  const store = (next: typeof entries) => field.set(next.length > 0 ? next : null);
  return (
    <Stack gap="xs">
      <Title order={4}>Source URLs</Title>
      {entries.map((entry, index) => (
        <SourceRow
          key={`${index}:${entry.url}`}
          name={name}
          index={index}
          url={entry.url}
          status={sourceStatus(entry.url, saved?.[index], stats)}
          locked={locked}
          onSwitch={() => void switchTo(entry.url)}
          onCommit={(url) =>
            store(
              url === ''
                ? entries.filter((_, i) => i !== index)
                : entries.map((e, i) => (i === index ? { ...e, url } : e)),
            )
          }
          onDrop={(from, to) => store(moveItem(entries, from, to))}
        />
      ))}
      <EditOnly>
        <NewSourceRow onAdd={(url) => store([...entries, { url }])} />
      </EditOnly>
    </Stack>
  );
}
