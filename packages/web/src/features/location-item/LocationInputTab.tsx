import { Alert } from '@mantine/core';
import { ItemForm } from '../item-page/ItemForm.js';
import { SecondsField } from '../stream-item/stream-fields.js';
import { useLocationBase } from './use-location.js';

/** Spec 001 §2: the notice of the input tab, and the source timeout of streams published here. */
export function LocationInputTab() {
  const { prefix, base } = useLocationBase();
  return (
    <ItemForm base={base}>
      <Alert color="blue">
        Publish to {prefix}/{'{NAME}'}: replace {'{NAME}'} with any path to publish.
      </Alert>
      <SecondsField
        path={[...base, 'source_timeout']}
        label="Source timeout"
        description="How many seconds the server should wait before considering source as dead"
      />
    </ItemForm>
  );
}
