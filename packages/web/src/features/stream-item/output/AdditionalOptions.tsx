import { Stack, Title } from '@mantine/core';
import { FlagField, IntegerField, SecondsField } from '../stream-fields.js';
import { PrepushField } from './PrepushField.js';

/** Segment count, segment duration (seconds typed, milliseconds stored), prepush, audio-only output. */
export function AdditionalOptions({ base }: { base: string[] }) {
  return (
    <Stack gap="sm">
      <Title order={4}>Additional options</Title>
      <IntegerField path={[...base, 'segment_count']} label="Segment count" />
      <SecondsField path={[...base, 'segment_duration']} label="Segment duration" factor={1000} />
      <PrepushField base={base} />
      <FlagField path={[...base, 'add_audio_only']} label="Add audio only" />
    </Stack>
  );
}
