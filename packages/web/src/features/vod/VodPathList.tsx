import { Anchor, Group, Stack, TextInput } from '@mantine/core';
import { deepEqual } from '@sluice/api';
import { useState } from 'react';
import { Link } from 'react-router';
import { pathTo } from '../../app/routes.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { nextRowId } from '../../components/use-row-draft.js';
import { useConfigField } from '../global-config/global-fields.js';
import { useSavedVodUrls } from './use-vod.js';
import {
  browseNumber,
  dropEmptyPathRow,
  type PathRow,
  pathRowLabel,
  pathRowsToUrls,
  urlsToPathRows,
  type VodUrl,
  withNewPathRow,
} from './vod-paths.js';

const rowsOf = (urls: readonly VodUrl[] | null | undefined) =>
  withNewPathRow(urlsToPathRows(urls, nextRowId), nextRowId);

/**
 * A VOD's source paths (spec 002 §2): a path field per directory with a 'browse' link to its file
 * list, and an empty 'New path' row; a row emptied is removed when it loses focus. Every change is an
 * unsaved edit of `urls`, saved with the tab's Save.
 */
export function VodPathList({ prefix, base }: { prefix: string; base: string[] }) {
  const field = useConfigField<VodUrl[]>([...base, 'urls']);
  const saved = useSavedVodUrls(prefix);
  const [rows, setRows] = useState(() => rowsOf(field.value));
  const [seen, setSeen] = useState(field.value);
  if (!Object.is(seen, field.value)) {
    // Another save changed the paths: show them, unless the rows already say the same.
    setSeen(field.value);
    if (!deepEqual(pathRowsToUrls(rows), field.value ?? null)) setRows(rowsOf(field.value));
  }
  const commit = (next: PathRow[]) => {
    const shown = withNewPathRow(next, nextRowId);
    setRows(shown);
    field.set(pathRowsToUrls(shown));
  };

  return (
    <Stack gap={6} role="group" aria-label="Source paths">
      <ChangedLabel label="Source paths" changed={field.changed} />
      {rows.map((row, index) => {
        const label = pathRowLabel(rows, index);
        const number = browseNumber(saved, row.path);
        return (
          <Group key={row.id} gap="sm" wrap="nowrap" align="center">
            <TextInput
              aria-label={label}
              placeholder={label}
              value={row.path}
              onChange={(event) => {
                const path = event.currentTarget.value;
                commit(rows.map((r) => (r.id === row.id ? { ...r, path } : r)));
              }}
              onBlur={() => {
                const next = dropEmptyPathRow(rows, row.id);
                if (next !== rows) commit(next);
              }}
              style={{ flex: 1 }}
            />
            {number !== undefined && (
              <Anchor
                component={Link}
                to={pathTo('vod-item/tree', { mediaName: prefix, number: String(number) })}
                size="sm"
                title={`Files of ${row.path}`}
              >
                browse
              </Anchor>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
