import { Alert } from '@mantine/core';
import { ItemForm } from '../item-page/ItemForm.js';
import { SharedOutputFields } from '../item-page/SharedOutputFields.js';
import { useLocationBase } from './use-location.js';

/** Spec 001 §2: the notice of the output tab, Max sessions (auth.max_sessions) and Client timeout. */
export function LocationOutputTab() {
  const { prefix, base } = useLocationBase();
  return (
    <ItemForm base={base}>
      <Alert color="blue">
        Play {window.location.origin}/{prefix}/{'{NAME}'}/index.m3u8: replace {'{NAME}'} with the stream name.
      </Alert>
      <SharedOutputFields base={base} />
    </ItemForm>
  );
}
