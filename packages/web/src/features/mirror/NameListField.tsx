import { TextInput } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useTextDraft } from '../../components/use-text-draft.js';
import { useConfigField } from '../global-config/global-fields.js';
import { formatNameList, parseNameList } from './name-list.js';

/** A mirror's list of stream names, typed separated by commas or spaces; empty removes the key. */
export function NameListField({
  path,
  label,
  description,
}: {
  path: string[];
  label: string;
  description?: string;
}) {
  const field = useConfigField<string[]>(path);
  const draft = useTextDraft({
    value: field.value,
    format: formatNameList,
    parse: parseNameList,
    onCommit: field.set,
  });
  return (
    <TextInput
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      description={description}
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
      error={field.issue}
    />
  );
}
