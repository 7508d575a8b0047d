import { PasswordInput, TextInput } from '@mantine/core';
import { useEdit, useView } from '../../api/use-live.js';
import { ChangedLabel } from '../../components/ChangedLabel.js';
import { useReportError } from '../../components/form-context.js';
import { useTextDraft } from '../../components/use-text-draft.js';
import { useConfigField } from './global-fields.js';

type Part = 'login' | 'password';
const LABELS: Record<Part, string> = { login: 'View-only username', password: 'View-only password' };
const other = (part: Part): Part => (part === 'login' ? 'password' : 'login');

const emptyToNull = (text: string) => (text === '' ? null : text);
const formatText = (value: string | null | undefined) => value ?? '';

/**
 * One half of view_auth (spec 000 §6: separate edit and view credentials). view_auth is optional as
 * a whole: emptying both fields removes it, and one without the other is "… is required".
 */
function ViewAuthField({ part }: { part: Part }) {
  const label = LABELS[part];
  const edit = useEdit();
  const field = useConfigField<string>(['view_auth', part]);
  const otherValue = useView<string>(['view_auth', other(part)]);
  const draft = useTextDraft({
    value: field.value,
    format: formatText,
    parse: emptyToNull,
    onCommit: (value: string | null) => {
      if (value === null && !otherValue) edit(['view_auth'], null);
      else edit(['view_auth', part], value);
    },
  });
  const missing = draft.text === '' && otherValue ? `${label} is required` : undefined;
  useReportError(`required:view_auth.${part}`, missing);
  const Input = part === 'password' ? PasswordInput : TextInput;
  return (
    <Input
      label={<ChangedLabel label={label} changed={field.changed} />}
      aria-label={label}
      autoComplete="off"
      value={draft.text}
      onChange={(event) => draft.change(event.currentTarget.value)}
      onBlur={draft.blur}
      error={missing ?? field.issue}
    />
  );
}

export function ViewAuthFields() {
  return (
    <>
      <ViewAuthField part="login" />
      <ViewAuthField part="password" />
    </>
  );
}
