import { Group } from '@mantine/core';
import { CheckedInput } from './CheckedInput.js';
import { OptionSelect } from './OptionSelect.js';
import {
  BFRAMES,
  FPS,
  LEVELS,
  NVENC_PRESETS,
  PROFILES,
  REFS,
  SOFTWARE_PRESETS,
  VIDEO_CODECS,
  type VideoCodec,
} from './transcoder-constants.js';
import type { VideoTrack } from './transcoder-model.js';
import { numberChars, parsePositive } from './transcoder-validation.js';

interface TrackFieldsProps {
  errorId: string;
  track: VideoTrack;
  hw: string | undefined;
  /** Sets one field of the track; null removes it. */
  set: (key: string, value: unknown) => void;
  replaceTrack: (track: VideoTrack) => void;
}

const formatCount = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/** Codec, preset (nvenc's own list), profile and level by codec, FPS, B-frames, refs, frames in GOP. */
export function TrackEncodingFields({ errorId, track, hw, set, replaceTrack }: TrackFieldsProps) {
  const codec: VideoCodec = track.codec ?? 'h264';
  const changeCodec = (next: VideoCodec | null) => {
    const target = next ?? 'h264';
    // A profile or level of the old codec means nothing to the new one.
    const { profile, level, codec: _old, ...rest } = track;
    replaceTrack({
      ...rest,
      ...(next ? { codec: next } : {}),
      ...(profile !== undefined && PROFILES[target].includes(profile) ? { profile } : {}),
      ...(level !== undefined && LEVELS[target].includes(level) ? { level } : {}),
    });
  };
  return (
    <Group gap="md" align="flex-start">
      <OptionSelect label="Codec" options={VIDEO_CODECS} value={track.codec} onChange={changeCodec} />
      <OptionSelect
        label="Preset"
        options={hw === 'nvenc' ? NVENC_PRESETS : SOFTWARE_PRESETS}
        value={track.preset}
        onChange={(v) => set('preset', v)}
      />
      <OptionSelect
        label="Profile"
        options={PROFILES[codec]}
        value={track.profile}
        onChange={(v) => set('profile', v)}
      />
      <OptionSelect
        label="Level"
        options={LEVELS[codec]}
        value={track.level}
        onChange={(v) => set('level', v)}
      />
      <OptionSelect
        label="FPS"
        options={FPS}
        value={track.fps}
        onChange={(v) => set('fps', v)}
        emptyLabel="auto"
      />
      <OptionSelect
        label="B-frames"
        options={BFRAMES}
        value={track.bframes}
        onChange={(v) => set('bframes', v)}
      />
      <OptionSelect label="Refs" options={REFS} value={track.refs} onChange={(v) => set('refs', v)} />
      <CheckedInput
        errorId={`${errorId}:g`}
        label="Frames in GOP"
        aria-label="Frames in GOP"
        placeholder="auto"
        inputMode="numeric"
        // g is what this console writes; gop, the other name, is shown when g is absent and replaced.
        value={track.g ?? track.gop ?? null}
        format={formatCount}
        parse={parsePositive}
        onCommit={(v) => {
          const { g: _g, gop: _gop, ...rest } = track;
          replaceTrack(v === null ? rest : { ...rest, g: v });
        }}
        filter={numberChars}
        w={150}
      />
    </Group>
  );
}
