import { Button, Group } from '@mantine/core';
import { useCanEdit } from '../../api/access.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { useView } from '../../api/use-live.js';
import { useInstantSave } from '../stream-item/use-instant-save.js';

/** Spec 002 §4: a VOD is enabled or disabled; the toggle saves {vods: {prefix: {disabled}}} at once. */
export function VodStateToggle({ prefix }: { prefix: string }) {
  const disabled = useView<boolean>(['vods', prefix, 'disabled']) === true;
  const { save, status, saving } = useInstantSave({ optimistic: true });
  if (!useCanEdit()) return null;
  return (
    <Group gap="sm">
      <Button
        variant="default"
        disabled={saving}
        onClick={() => void save({ vods: { [prefix]: { disabled: disabled ? null : true } } })}
      >
        {disabled ? 'Enable' : 'Disable'}
      </Button>
      <SaveStatus status={status} />
    </Group>
  );
}
