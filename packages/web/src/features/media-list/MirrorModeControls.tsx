import { Group, Radio, Switch } from '@mantine/core';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { SaveStatus } from '../../components/SaveStatus.js';
import { defaultModeChange, type MirrorMode, mirrorMode, type ModeLists } from '../mirror/mirror-modes.js';
import { useInstantSave } from '../stream-item/use-instant-save.js';

/**
 * A mirror's default-mode radio (spec 000 §4: static, or on demand with an only list), saved at
 * once and locked while saving; and the toggle that shows or hides its on-demand streams.
 */
export function MirrorModeControls({
  position,
  lists,
  showOnDemand,
  onShowOnDemand,
}: {
  position: string;
  lists: ModeLists;
  showOnDemand: boolean;
  onShowOnDemand: (show: boolean) => void;
}) {
  const { save, status, saving } = useInstantSave();
  return (
    <Group gap="md" wrap="wrap">
      <ReadOnlyFields>
        <Radio.Group
          aria-label="Default mode"
          value={mirrorMode(lists)}
          onChange={(value) => void save({ sources: { [position]: defaultModeChange(value as MirrorMode) } })}
        >
          <Group gap="sm">
            <Radio value="static" label="static" disabled={saving} size="xs" />
            <Radio value="ondemand" label="on demand" disabled={saving} size="xs" />
          </Group>
        </Radio.Group>
      </ReadOnlyFields>
      <Switch
        size="xs"
        label="Show on-demand streams"
        checked={showOnDemand}
        onChange={(event) => onShowOnDemand(event.currentTarget.checked)}
      />
      <SaveStatus status={status} />
    </Group>
  );
}
