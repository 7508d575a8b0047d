import { Autocomplete, Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { MODES, type Mode, type Rule, VARIANTS, type Variant } from './backend-rules.js';

/** What the editor holds: a value for a target backend, and the chip it edits, if one was clicked. */
export interface EditorState extends Rule {
  target: string;
  editing?: Rule & { target: string };
}

export const emptyEditor = (target = ''): EditorState => ({
  mode: 'allow',
  variant: 'token',
  value: '',
  target,
});

/**
 * The value editor of spec 002 §2: mode (allow, deny, backend), variant (ip, token, country, ua),
 * target auth backend and the value, with Add — or Edit while a clicked chip is loaded. The target
 * may name a new backend, which the Add creates.
 */
export function ValueEditor({
  state,
  names,
  onChange,
  onSubmit,
  onCancel,
}: {
  state: EditorState;
  names: readonly string[];
  onChange: (state: EditorState) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const ready = state.value.trim() !== '' && state.target.trim() !== '';
  return (
    <Group
      component="form"
      aria-label="value editor"
      align="end"
      gap="sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) onSubmit();
      }}
    >
      <NativeSelect
        label="Mode"
        aria-label="Mode"
        data={[...MODES]}
        value={state.mode}
        onChange={(event) => onChange({ ...state, mode: event.currentTarget.value as Mode })}
      />
      <NativeSelect
        label="Variant"
        aria-label="Variant"
        data={[...VARIANTS]}
        value={state.variant}
        disabled={state.mode === 'backend'}
        onChange={(event) => onChange({ ...state, variant: event.currentTarget.value as Variant })}
      />
      <Autocomplete
        label="Auth backend"
        aria-label="Auth backend"
        data={[...names]}
        value={state.target}
        onChange={(target) => onChange({ ...state, target })}
        w={180}
      />
      <TextInput
        label="Value"
        aria-label="Value"
        placeholder={state.mode === 'backend' ? 'http://backend.example/auth' : ''}
        value={state.value}
        onChange={(event) => onChange({ ...state, value: event.currentTarget.value })}
        w={260}
      />
      <Button type="submit" disabled={!ready}>
        {state.editing ? 'Edit' : 'Add'}
      </Button>
      {state.editing && (
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      )}
    </Group>
  );
}
