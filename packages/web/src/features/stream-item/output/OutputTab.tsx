import { Button, Group, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useItemSaveFlow } from '../../../api/use-item-save-flow.js';
import { FormErrorsProvider, useFormErrorsState } from '../../../components/form-context.js';
import { SaveStatus } from '../../../components/SaveStatus.js';
import { useMediaName } from '../../item-page/use-media-name.js';
import { FlagField, IntegerField, SecondsField } from '../stream-fields.js';
import { AdditionalOptions } from './AdditionalOptions.js';
import { ProtocolUrls } from './ProtocolUrls.js';
import { PublishingBlock } from './PublishingBlock.js';
import { PushUrls } from './PushUrls.js';

const NO_ISSUES: ReadonlyMap<string, string> = new Map();

/** The stream's output tab (spec 001 §2 Output), saved as one delta keyed by the stream. */
export function OutputTab() {
  const name = useMediaName();
  const base = useMemo(() => ['streams', name], [name]);
  const form = useFormErrorsState(NO_ISSUES);
  const flow = useItemSaveFlow(base, form.invalid);
  return (
    <FormErrorsProvider value={form.value}>
      <Stack gap="lg" maw={900}>
        <ProtocolUrls name={name} />
        <FlagField path={[...base, 'thumbnails', 'enabled']} label="Thumbnails" />
        <IntegerField path={[...base, 'max_sessions']} label="Max sessions" />
        <SecondsField
          path={[...base, 'clients_timeout']}
          label="Client timeout"
          description="After this timeout from last client ondemand stream will be turned off"
        />
        <AdditionalOptions base={base} />
        <PushUrls base={base} />
        <PublishingBlock name={name} />
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
