import { Button, Group, Stack, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { SaveStatus } from '../../components/SaveStatus.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();

/** A tab of an item's fields with its Save: one delta keyed by the item (`base`, e.g. ['lives', prefix]). */
export function ItemForm({
  base,
  children,
  gap = 'md',
  maw = 700,
}: {
  base: string[];
  children: ReactNode;
  gap?: MantineSpacing;
  maw?: number;
}) {
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid);
  return (
    <FormErrorsProvider value={form.value}>
      <ReadOnlyFields>
        <Stack gap={gap} maw={maw}>
          {children}
          <EditOnly>
            <Group gap="sm">
              <Button onClick={() => void flow.save()} disabled={!flow.canSave}>
                Save
              </Button>
              <SaveStatus status={flow.status} />
            </Group>
          </EditOnly>
        </Stack>
      </ReadOnlyFields>
    </FormErrorsProvider>
  );
}
