import { Group, Stack, Switch, Title } from '@mantine/core';
import { useState } from 'react';
import { BitrateField } from './BitrateField.js';
import { OptionSelect } from './OptionSelect.js';
import { AUDIO_CODECS, CHANNELS, SAMPLE_RATES } from './transcoder-constants.js';
import { type Audio, audioCopyOff, audioCopyOn, audioUseDefaults } from './transcoder-model.js';
import type { TranscoderAccess } from './use-transcoder.js';

/** Sample rate 0 keeps the source's rate. */
const sampleRateLabel = (rate: number) => (rate === 0 ? '0 (bypass)' : String(rate));

/**
 * The Audio section (spec 001 §4 "Audio"): 'Use defaults' (no audio block) or the audio's own
 * bitrate, codec, sample rate and channels; 'Copy from origin' passes it through, its settings kept
 * as a backup that turning copy off restores.
 */
export function AudioSection({ transcoder }: { transcoder: TranscoderAccess }) {
  const { value, setAt } = transcoder;
  const audio = value?.audio;
  const [backup, setBackup] = useState<Audio | undefined>(undefined);
  const set = (key: string, next: unknown) => setAt(['audio', key], next);
  const onCopy = (on: boolean) => {
    if (on) {
      const next = audioCopyOn(audio);
      setBackup(next.backup);
      setAt(['audio'], next.audio);
    } else setAt(['audio'], audioCopyOff(backup));
  };
  return (
    <Stack gap="sm" component="section" aria-label="Audio">
      <Title order={4}>Audio</Title>
      <Switch
        label="Use defaults"
        aria-label="Use defaults"
        checked={!audio}
        onChange={(event) => setAt(['audio'], audioUseDefaults(event.currentTarget.checked))}
      />
      {audio && (
        <>
          <BitrateField
            errorId="audio:bitrate"
            value={audio.bitrate}
            onBitrate={(bps) => set('bitrate', bps)}
            onCopy={onCopy}
          />
          {audio.bitrate !== 'copy' && (
            <Group gap="md">
              <OptionSelect
                label="Audio codec"
                options={AUDIO_CODECS}
                value={audio.codec}
                onChange={(v) => set('codec', v)}
              />
              <OptionSelect
                label="Sample rate"
                options={SAMPLE_RATES}
                optionLabel={sampleRateLabel}
                value={audio.sample_rate}
                onChange={(v) => set('sample_rate', v)}
              />
              <OptionSelect
                label="Channels"
                options={CHANNELS}
                value={audio.channels}
                onChange={(v) => set('channels', v)}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
