import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { modifyConfig } from '../../api/config-calls.js';
import { useLiveSync } from '../../api/live-context.js';
import { useView } from '../../api/use-live.js';
import { useSaveRunner } from '../../api/use-save-runner.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import { SaveStatus } from '../../components/SaveStatus.js';

/**
 * One integer of the VOD settings with its own Save (spec 002 §2 "VOD settings … each with Save"):
 * typed into a draft of its own, so the tab's Save and the other field's are not mixed in; empty
 * removes the setting. Save is disabled while saving or when the value is the saved one.
 */
export function VodSettingField({ prefix, field, label }: { prefix: string; field: string; label: string }) {
  const sync = useLiveSync();
  const savedValue = useView<number>(['vods', prefix, field]) ?? null;
  const [draft, setDraft] = useState<number | null>(savedValue);
  const [seen, setSeen] = useState(savedValue);
  if (seen !== savedValue) {
    // Saved here or by another browser: the field shows what the server holds now.
    setSeen(savedValue);
    setDraft(savedValue);
  }
  const { run, status, saving } = useSaveRunner();
  const save = () =>
    run(async () => {
      const delta = { vods: { [prefix]: { [field]: draft } } };
      await modifyConfig(delta);
      await sync.confirmSaved(delta);
    });
  return (
    <Group gap="sm" align="flex-end" role="group" aria-label={label}>
      <ReadOnlyFields>
        <IntegerInput label={label} aria-label={label} value={draft} onChange={setDraft} w={300} />
      </ReadOnlyFields>
      <EditOnly>
        <Button variant="default" disabled={saving || draft === savedValue} onClick={() => void save()}>
          Save
        </Button>
        <SaveStatus status={status} />
      </EditOnly>
    </Group>
  );
}
