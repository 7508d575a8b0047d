import { Alert } from '@mantine/core';
import { notAppliedNote, reviewField } from '../lib/not-applied.js';

/**
 * The "not applied" mark beside a field this server saves without acting on it, as the DRM section
 * marks a vendor it does not apply; forms show it while the field is set. `path` is the field's config
 * path; nothing shows once the field is applied and gone from lib/not-applied.ts.
 */
export function NotAppliedMark({
  path,
  field,
  label,
}: {
  path?: readonly string[];
  /** The review's name of the field, for a form that does not know its config path. */
  field?: string;
  label: string;
}) {
  const note = notAppliedNote(field ?? reviewField(path ?? []));
  if (!note) return null;
  return (
    <Alert color="yellow" aria-label={`${label} not applied`} p="xs">
      {note}
    </Alert>
  );
}
