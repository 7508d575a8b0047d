import { TextInput } from '@mantine/core';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useChanged } from '../../api/use-live.js';
import { useTextDraft } from '../../components/use-text-draft.js';

const format = (value: string | null | undefined) => value ?? '';
const parse = (text: string) => (text.trim() === '' ? null : text.trim());

/** Spec 001 §8: the DVR path hints. */
export const PATH_HINT = 'No need to specify stream directory, it will be created automatically.';
export const PATH_PLACEHOLDER = 'Where archive is stored';

/** A path of the DVR tab (the archive root, the cache path); empty gives null. */
export function DvrPathField({
  path,
  label,
  value,
  onCommit,
  description,
}: {
  path: string[];
  label: string;
  value: string | null | undefined;
  onCommit: (value: string | null) => void;
  description?: string;
}) {
  const changed = useChanged(path);
  const draft = useTextDraft({ value, format, parse, onCommit });
  return (
    <TextInput
      label={<ChangedLabel label={label} changed={changed} />}
      aria-label={label}
      description={description}
      placeholder={PATH_PLACEHOLDER}
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
      maw={500}
    />
  );
}
