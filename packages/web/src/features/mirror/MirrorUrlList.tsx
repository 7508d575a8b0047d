import { ActionIcon, Group, Stack, Text, TextInput } from '@mantine/core';
import { deepEqual } from '@sluice/api';
import { useState } from 'react';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useReportError } from '../../components/form-context.js';
import { nextRowId } from '../../components/use-row-draft.js';
import { useConfigField } from '../global-config/global-fields.js';
import {
  dropEmptyRow,
  rowsToUrls,
  typedUrl,
  type UrlRow,
  urlRowLabel,
  urlsToRows,
  withNewRow,
} from './url-rows.js';

const REQUIRED = 'Server URL is required';
const rowsOf = (urls: readonly string[] | null | undefined) =>
  withNewRow(urlsToRows(urls, nextRowId), nextRowId);

/**
 * A mirror's origin urls (spec 001 §2 Input): a 'Server URL N' field per url and an empty 'New URL'
 * row; a url emptied is removed when it loses focus; each has a remove control. Every change is an
 * unsaved edit of `urls`; a mirror needs at least one.
 */
export function MirrorUrlList({ base }: { base: string[] }) {
  const field = useConfigField<string[]>([...base, 'urls']);
  const [rows, setRows] = useState(() => rowsOf(field.value));
  const [seen, setSeen] = useState(field.value);
  if (!Object.is(seen, field.value)) {
    // Another save changed the urls: show them, unless the rows already say the same.
    setSeen(field.value);
    if (!deepEqual(rowsToUrls(rows), field.value ?? null)) setRows(rowsOf(field.value));
  }
  const commit = (next: UrlRow[]) => {
    const shown = withNewRow(next, nextRowId);
    setRows(shown);
    field.set(rowsToUrls(shown));
  };
  const missing = rowsToUrls(rows) === null ? REQUIRED : undefined;
  useReportError('mirror-urls', missing);

  return (
    <Stack gap={6} role="group" aria-label="Server URLs">
      <ChangedLabel label="Server URLs" changed={field.changed} />
      {rows.map((row, index) => {
        const label = urlRowLabel(rows, index);
        return (
          <Group key={row.id} gap="xs" wrap="nowrap" align="flex-end">
            <TextInput
              label={label}
              aria-label={label}
              value={row.url}
              onChange={(event) =>
                commit(
                  rows.map((r) => (r.id === row.id ? { ...r, url: typedUrl(event.currentTarget.value) } : r)),
                )
              }
              onBlur={() => {
                const next = dropEmptyRow(rows, row.id);
                if (next !== rows) commit(next);
              }}
              style={{ flex: 1 }}
            />
            {label !== 'New URL' && (
              <ActionIcon
                variant="subtle"
                color="red"
                mb={4}
                aria-label={`Remove ${label}`}
                onClick={() => commit(rows.filter((r) => r.id !== row.id))}
              >
                ×
              </ActionIcon>
            )}
          </Group>
        );
      })}
      {missing && (
        <Text c="red" size="xs" role="alert">
          {missing}
        </Text>
      )}
    </Stack>
  );
}
