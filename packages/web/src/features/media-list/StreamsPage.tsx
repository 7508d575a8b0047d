import { Group, Stack, Title } from '@mantine/core';
import { configOrder, type LocalFilter, nextSort, type SortKey, type SortState } from '@sluice/api';
import { memo, useCallback, useMemo, useState } from 'react';
import { useCanEdit } from '../../api/access.js';
import { useSaveRunner } from '../../api/use-save-runner.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { LocalFilterToggles } from './LocalFilterToggles.js';
import { StreamAddForm } from './StreamAddForm.js';
import { StreamsFilterBar } from './StreamsFilterBar.js';
import { StreamsTable } from './StreamsTable.js';
import { useListParams } from './use-list-params.js';
import { useStreamDrag } from './use-stream-drag.js';
import { StreamIndex } from './stream-index.js';
import { useStreamNames } from './use-stream-list.js';
import { useUrlPublish } from './use-url-publish.js';

/**
 * The Streams list of the media page (spec 000 §2): add form, filter bar, local filter, sorting
 * and drag reorder over the virtualised table. Beside an open item it shows in compact form.
 */
export const StreamsPage = memo(function StreamsPage({
  selected,
  compact,
}: {
  selected: string | undefined;
  compact: boolean;
}) {
  const params = useListParams();
  const [local, setLocal] = useState<LocalFilter>();
  const [sort, setSort] = useState<SortState>(configOrder);
  const urlPublish = useUrlPublish();
  const spec = useMemo(
    () => ({ filters: params.filters, query: params.query, local, sort }),
    [params.filters, params.query, local, sort],
  );
  // One index for the page: the table and the filter bar read their slices of it.
  const [index] = useState(() => new StreamIndex());
  const names = useStreamNames(index, spec, urlPublish);
  const list = useMemo(() => ({ index, spec, urlPublish }), [index, spec, urlPublish]);
  const saves = useSaveRunner();
  const canEdit = useCanEdit();
  // Spec 000 §2: drag reorder only with no stream selected and in config order (and saving allowed).
  const reorderable =
    canEdit && selected === undefined && sort.key === 'position' && sort.direction === 'asc';
  const drag = useStreamDrag(names, reorderable, saves.run);
  const onSort = useCallback((key: Exclude<SortKey, 'position'>) => setSort((s) => nextSort(s, key)), []);

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center">
        <Title order={2}>Streams</Title>
        <Group gap="xs">
          <SaveStatus status={saves.status} />
          <LocalFilterToggles value={local} onChange={setLocal} />
        </Group>
      </Group>
      {!compact && canEdit && <StreamAddForm />}
      <StreamsFilterBar
        query={params.query}
        onQuery={params.setQuery}
        filters={params.filters}
        onFilters={params.setFilters}
        list={list}
      />
      <StreamsTable
        names={names}
        drag={drag}
        reorderable={reorderable}
        selected={selected}
        compact={compact}
        urlPublish={urlPublish}
        sort={sort}
        onSort={onSort}
      />
    </Stack>
  );
});
