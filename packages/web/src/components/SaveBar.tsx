import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import type { SaveStatus as Status } from '../api/save-progress.js';
import { EditOnly } from './EditOnly.js';
import { SaveStatus } from './SaveStatus.js';

/**
 * A form's Save button (enabled only when there is something valid to save, spec 000 §4), any
 * further actions beside it, and the save progress. None of it is offered to a view-only session.
 */
export function SaveBar({
  onSave,
  canSave,
  status,
  children,
}: {
  onSave: () => unknown;
  canSave: boolean;
  status: Status;
  /** More buttons between Save and the progress (Reset, Add…). */
  children?: ReactNode;
}) {
  return (
    <EditOnly>
      <Group gap="sm">
        <Button onClick={() => void onSave()} disabled={!canSave}>
          Save
        </Button>
        {children}
        <SaveStatus status={status} />
      </Group>
    </EditOnly>
  );
}
