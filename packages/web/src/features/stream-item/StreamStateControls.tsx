import { Button, Group, Radio } from '@mantine/core';
import { useCanEdit } from '../../api/access.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { useInstantSave } from './use-instant-save.js';
import { useStream } from './use-stream.js';

/** Disable/enable and static/on demand (spec 001 §4): each saves at once, locked while saving. */
export function StreamStateControls({ name }: { name: string }) {
  const stream = useStream(name);
  const { save, status, saving } = useInstantSave({ optimistic: true });
  const disabled = stream?.disabled === true;
  const isStatic = stream?.static === true;
  const canEdit = useCanEdit();
  return (
    <Group gap="md">
      {canEdit && (
        <Button
          variant="default"
          disabled={saving}
          onClick={() => void save({ streams: { [name]: { disabled: disabled ? null : true } } })}
        >
          {disabled ? 'Enable' : 'Disable'}
        </Button>
      )}
      <ReadOnlyFields>
        <Radio.Group
          aria-label="Start condition"
          value={isStatic ? 'static' : 'ondemand'}
          onChange={(value) =>
            void save({ streams: { [name]: { static: value === 'static' ? true : null } } })
          }
        >
          <Group gap="sm">
            <Radio value="static" label="static" disabled={saving} />
            <Radio value="ondemand" label="on demand" disabled={saving} />
          </Group>
        </Radio.Group>
      </ReadOnlyFields>
      <SaveStatus status={status} />
    </Group>
  );
}
