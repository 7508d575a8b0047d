import { Stack, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import { useItemSaveFlow } from '../../api/use-item-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../components/form-context.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { SaveBar } from '../../components/SaveBar.js';

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
          <SaveBar onSave={flow.save} canSave={flow.canSave} status={flow.status} />
        </Stack>
      </ReadOnlyFields>
    </FormErrorsProvider>
  );
}
