import { TextInput } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useTextDraft } from '../../components/use-text-draft.js';
import { useConfigField } from '../global-config/global-fields.js';

const format = (value: string | null | undefined) => value ?? '';
const parse = (text: string) => (text === '' ? null : text);

/** The global cluster_key (spec 000 §3), as the peers and mirrors prove themselves with it. */
export function ClusterKeyField() {
  const field = useConfigField<string>(['cluster_key']);
  const draft = useTextDraft({ value: field.value, format, parse, onCommit: field.set });
  return (
    <TextInput
      label={<ChangedLabel label="Cluster key" changed={field.changed} />}
      aria-label="Cluster key"
      description="Must be same on all clustered peers"
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
      error={field.issue}
      autoComplete="off"
    />
  );
}
