import { useMemo } from 'react';
import { TextField } from '../../global-config/global-fields.js';
import { ItemForm } from '../../item-page/ItemForm.js';
import { useMediaName } from '../../item-page/use-media-name.js';
import { FlagField, SecondsField } from '../stream-fields.js';
import { SourceList } from './SourceList.js';

/** The stream's input tab (spec 001 §2 Input). */
export function InputTab() {
  const name = useMediaName();
  const base = useMemo(() => ['streams', name], [name]);
  return (
    <ItemForm base={base} gap="lg" maw={900}>
      <SourceList name={name} />
      <SecondsField
        path={[...base, 'source_timeout']}
        label="Source timeout"
        description="How many seconds the server should wait before considering source as dead"
      />
      <TextField path={[...base, 'cluster_key']} label="Cluster key" />
      <TextField path={[...base, 'backup']} label="Fallback video" />
      <FlagField path={[...base, 'publish_enabled']} label="Published input" />
    </ItemForm>
  );
}
