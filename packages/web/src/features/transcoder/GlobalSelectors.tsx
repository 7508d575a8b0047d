import { Group, NativeSelect, Switch } from '@mantine/core';
import { useCallback } from 'react';
import type { LiveState } from '../../api/live-state.js';
import { useLive } from '../../api/use-live.js';
import { useServerInfo } from '../../api/server-info.js';
import { NotAppliedMark } from '../../components/NotAppliedMark.js';
import { OptionSelect } from './OptionSelect.js';
import { DEINTERLACE_MODES, NVENC_DEINTERLACE_MODES } from './transcoder-constants.js';
import { deviceIds, hardwareOptions, hasEncodedTrack, leaveHardware } from './transcoder-model.js';
import type { TranscoderAccess } from './use-transcoder.js';

/** A legacy deinterlace true/false reads as on/off. */
const deinterlaceText = (value: string | boolean | undefined) =>
  value === true ? 'on' : value === false ? 'off' : value;

/** The hardware the server holds for the stream (offered even when no such device is found). */
function useSavedHardware(name: string): string | undefined {
  const select = useCallback(
    (state: LiveState) => state.server.streams?.[name]?.transcoder?.global?.hw,
    [name],
  );
  return useLive(select);
}

/**
 * Hardware, Deinterlace mode, Device ID and Seamless switch (spec 001 §2, §4 "Hardware change"):
 * enabled only while some video track is encoded; the hardware offered follows the devices the
 * server found; leaving the Hardware selector on anything but nvenc clears external.
 */
export function GlobalSelectors({ name, transcoder }: { name: string; transcoder: TranscoderAccess }) {
  const savedHw = useSavedHardware(name);
  const devices = useServerInfo().data?.transcoder_devices ?? [];
  const { value, setAt, replace } = transcoder;
  const hw = value?.global?.hw ?? 'cpu';
  const disabled = !hasEncodedTrack(value);
  const modes: string[] =
    hw === 'nvenc' ? [...DEINTERLACE_MODES, ...NVENC_DEINTERLACE_MODES] : [...DEINTERLACE_MODES];
  const deinterlace = deinterlaceText(value?.decoder?.deinterlace);

  return (
    <Group gap="md" align="flex-end">
      <NativeSelect
        label="Hardware"
        aria-label="Hardware"
        disabled={disabled}
        data={hardwareOptions(devices, [savedHw, value?.global?.hw])}
        value={hw}
        onChange={(event) => setAt(['global', 'hw'], event.currentTarget.value)}
        onBlur={() => {
          if (value) {
            const next = leaveHardware(value);
            if (next !== value) replace(next);
          }
        }}
      />
      <OptionSelect
        label="Deinterlace mode"
        disabled={disabled}
        options={modes}
        value={deinterlace}
        onChange={(mode) => setAt(['decoder', 'deinterlace'], mode)}
      />
      <OptionSelect
        label="Device ID"
        disabled={disabled}
        options={deviceIds(devices, hw)}
        value={value?.global?.deviceid}
        onChange={(id) => setAt(['global', 'deviceid'], id)}
      />
      <Switch
        label="Seamless switch"
        aria-label="Seamless switch"
        disabled={disabled}
        checked={value?.global?.seamless === true}
        onChange={(event) => setAt(['global', 'seamless'], event.currentTarget.checked ? true : null)}
      />
      {value?.global?.seamless === true && (
        <NotAppliedMark
          path={['streams', name, 'transcoder', 'global', 'seamless']}
          label="Seamless switch"
        />
      )}
    </Group>
  );
}
