import { Group, Input, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  isEmptyRow,
  type KeyValueRow,
  recordToRows,
  rowErrors,
  rowsToRecord,
  valueError,
} from '../lib/key-value.js';
import { useReportError } from './form-context.js';
import { nextRowId, useRowDraft } from './use-row-draft.js';

interface KeyValueEditorProps {
  /** Names this editor's error in the enclosing form. */
  name: string;
  label: ReactNode;
  value: Record<string, unknown> | null | undefined;
  onChange: (value: Record<string, string> | null) => void;
}

const toRows = (value: Record<string, unknown> | null | undefined) => recordToRows(value, nextRowId);
const emptyRow = (): KeyValueRow => ({ id: nextRowId(), key: '', value: '' });

/**
 * Free key/value options (spec 001 §5): keys start with a letter, then letters, digits and
 * underscores; values must not contain #; a row with empty key and value is removed on blur; no rows
 * is null. Every keystroke stays in the field (issue 17): invalid text shows the spec's message and
 * is not committed until it is fixed.
 */
export function KeyValueEditor({ name, label, value, onChange }: KeyValueEditorProps) {
  // An empty map and null say the same (no options): a caller storing {} for the null committed
  // would otherwise look like an outside change and reset the rows under the operator's cursor.
  const stored = value && Object.keys(value).length > 0 ? value : null;
  const draft = useRowDraft({
    value: stored,
    toRows,
    fromRows: rowsToRecord,
    emptyRow,
    isEmpty: isEmptyRow,
    validate: rowErrors,
    onCommit: onChange,
  });
  useReportError(`key-value:${name}`, draft.errors.values().next().value);

  return (
    <Input.Wrapper label={label}>
      <Stack gap={4}>
        {draft.rows.map((row) => {
          const error = draft.errors.get(row.id);
          const onValue = error !== undefined && valueError(row.value) === error;
          return (
            <Group
              key={row.id}
              gap="xs"
              align="flex-start"
              wrap="nowrap"
              onBlur={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget)) draft.blurRow(row.id);
              }}
            >
              <TextInput
                aria-label="key"
                placeholder="key"
                value={row.key}
                error={!onValue ? error : undefined}
                onChange={(event) => draft.update(row.id, { key: event.currentTarget.value })}
                style={{ flex: 1 }}
              />
              <TextInput
                aria-label="value"
                placeholder="value"
                value={row.value}
                error={onValue ? error : undefined}
                onChange={(event) => draft.update(row.id, { value: event.currentTarget.value })}
                style={{ flex: 2 }}
              />
            </Group>
          );
        })}
      </Stack>
    </Input.Wrapper>
  );
}
