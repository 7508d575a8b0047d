import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import { TRACK_PRESETS, type TrackPreset } from './transcoder-constants.js';

/** 'Add video track' split button: the default track (1 Mbps h264), or a preset from its menu. */
export function AddTrackButton({ onAdd }: { onAdd: (preset?: TrackPreset) => void }) {
  return (
    <Group gap={0} wrap="nowrap">
      <Button onClick={() => onAdd()} style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}>
        Add video track
      </Button>
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon
            size={36}
            variant="filled"
            aria-label="Video track presets"
            style={{
              borderTopLeftRadius: 0,
              borderBottomLeftRadius: 0,
              borderLeft: '1px solid rgba(255,255,255,.4)',
            }}
          >
            <svg viewBox="0 0 16 16" width={14} height={14} aria-hidden="true">
              <path d="M4 6l4 4 4-4" stroke="currentColor" fill="none" strokeWidth={1.5} />
            </svg>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {TRACK_PRESETS.map((preset) => (
            <Menu.Item key={preset.label} onClick={() => onAdd(preset)}>
              {preset.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
