import { Alert } from '@mantine/core';
import { ItemForm } from '../item-page/ItemForm.js';
import { IntegerField, SecondsField } from '../stream-item/stream-fields.js';
import { useLocationBase } from './use-location.js';

/** Spec 001 §2: the notice of the output tab, Max sessions (auth.max_sessions) and Client timeout. */
export function LocationOutputTab() {
  const { prefix, base } = useLocationBase();
  return (
    <ItemForm base={base}>
      <Alert color="blue">
        Play {window.location.origin}/{prefix}/{'{NAME}'}/index.m3u8: replace {'{NAME}'} with the stream name.
      </Alert>
      <IntegerField path={[...base, 'auth', 'max_sessions']} label="Max sessions" />
      <SecondsField
        path={[...base, 'clients_timeout']}
        label="Client timeout"
        description="After this timeout from last client ondemand stream will be turned off"
      />
    </ItemForm>
  );
}
