import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useSaveFlow } from '../../api/use-save-flow.js';
import { AuthBackendCard } from './AuthBackendCard.js';
import { addRule, cleanValue, removeRule, replaceRule } from './backend-rules.js';
import { useAuthBackends } from './use-auth-backends.js';
import { type EditorState, emptyEditor, ValueEditor } from './ValueEditor.js';
import { SaveBar } from '../../components/SaveBar.js';

const KEYS = ['auth_backends'] as const;

/**
 * The Auth backends page (spec 002 §2, §4): named authorization backends edited as one unsaved
 * change of auth_backends; Save, Reset and Add auth backend are enabled only when it has changed.
 */
export function AuthBackendsPage() {
  const { backends, names, put, existingOrNew, add, rename } = useAuthBackends();
  const flow = useSaveFlow({ keys: KEYS });
  const [editor, setEditor] = useState<EditorState>(() => emptyEditor());

  const submit = () => {
    const target = editor.target.trim();
    if (target === '') return;
    const rule = {
      mode: editor.mode,
      variant: editor.variant,
      value: cleanValue(editor.variant, editor.mode, editor.value),
    };
    const { editing } = editor;
    if (editing?.target === target) {
      put(target, replaceRule(existingOrNew(target), editing, rule));
    } else {
      const previous = editing && backends[editing.target];
      if (editing && previous) put(editing.target, removeRule(previous, editing));
      put(target, addRule(existingOrNew(target), rule));
    }
    setEditor({ ...emptyEditor(target), mode: editor.mode, variant: editor.variant });
  };

  const reset = () => {
    flow.discard();
    setEditor(emptyEditor());
  };

  return (
    <Stack gap="md" maw={1000} component="section" aria-label="auth backends">
      <Title order={2}>Auth backends</Title>
      <EditOnly>
        <ValueEditor
          state={editor}
          names={names}
          onChange={setEditor}
          onSubmit={submit}
          onCancel={() => setEditor(emptyEditor(editor.target))}
        />
      </EditOnly>
      {names.length === 0 && <Text c="dimmed">No auth backends configured.</Text>}
      <ReadOnlyFields>
        <Stack gap="md">
          {names.map((name) => {
            const backend = backends[name];
            if (!backend) return null;
            return (
              <AuthBackendCard
                key={name}
                name={name}
                backend={backend}
                onRename={(typed) => rename(name, typed)}
                onChange={(next) => put(name, next)}
                onDelete={() => put(name, null)}
                onPick={(chip) => setEditor({ ...chip, target: name, editing: { ...chip, target: name } })}
                onRemove={(chip) => put(name, removeRule(backend, chip))}
              />
            );
          })}
        </Stack>
      </ReadOnlyFields>
      <SaveBar onSave={flow.save} canSave={flow.canSave} status={flow.status}>
        <Button variant="default" onClick={reset} disabled={!flow.changed || flow.saving}>
          Reset
        </Button>
        <Button variant="light" onClick={() => add()} disabled={!flow.changed || flow.saving}>
          Add auth backend
        </Button>
      </SaveBar>
    </Stack>
  );
}
