import { Button, Group, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useItemSaveFlow } from '../../../api/use-item-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../../components/form-context.js';
import { SaveStatus } from '../../../components/SaveStatus.js';
import { TextField } from '../../global-config/global-fields.js';
import { useMediaName } from '../../item-page/use-media-name.js';
import { FlagField, SecondsField } from '../stream-fields.js';
import { SourceList } from './SourceList.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();

/** The stream's input tab (spec 001 §2 Input). */
export function InputTab() {
  const name = useMediaName();
  const base = useMemo(() => ['streams', name], [name]);
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid);
  return (
    <FormErrorsProvider value={form.value}>
      <Stack gap="lg" maw={900}>
        <SourceList name={name} />
        <SecondsField
          path={[...base, 'source_timeout']}
          label="Source timeout"
          description="How many seconds the server should wait before considering source as dead"
        />
        <TextField path={[...base, 'cluster_key']} label="Cluster key" />
        <TextField path={[...base, 'backup']} label="Fallback video" />
        <FlagField path={[...base, 'publish_enabled']} label="Published input" />
        <Group gap="sm">
          <Button onClick={() => void flow.save()} disabled={!flow.canSave}>
            Save
          </Button>
          <SaveStatus status={flow.status} />
        </Group>
      </Stack>
    </FormErrorsProvider>
  );
}
