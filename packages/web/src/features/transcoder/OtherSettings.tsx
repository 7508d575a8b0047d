import { Stack, Switch, Title } from '@mantine/core';
import { CheckedInput } from './CheckedInput.js';
import { GroupInputs } from './GroupInputs.js';
import { CROP_REQUIRED, numberChars, parsePositive } from './transcoder-validation.js';
import type { TranscoderAccess } from './use-transcoder.js';

const CROP_FIELDS = [
  { key: 'left', label: 'Crop left' },
  { key: 'top', label: 'Crop top' },
  { key: 'width', label: 'Crop width' },
  { key: 'height', label: 'Crop height' },
] as const;

const formatCount = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/** 'Other settings': the decoder's crop (all four edges or none), threads and drop_second. */
export function OtherSettings({ transcoder }: { transcoder: TranscoderAccess }) {
  const { value, setAt } = transcoder;
  const decoder = value?.decoder;
  return (
    <Stack gap="sm" component="section" aria-label="Other settings">
      <Title order={4}>Other settings</Title>
      <GroupInputs
        errorId="decoder:crop"
        fields={CROP_FIELDS}
        value={decoder?.crop}
        requiredMessage={CROP_REQUIRED}
        onCommit={(crop) => setAt(['decoder', 'crop'], crop)}
      />
      <CheckedInput
        errorId="decoder:threads"
        label="Decoder threads"
        aria-label="Decoder threads"
        inputMode="numeric"
        value={decoder?.threads ?? null}
        format={formatCount}
        parse={parsePositive}
        onCommit={(threads) => setAt(['decoder', 'threads'], threads)}
        filter={numberChars}
        w={150}
      />
      <Switch
        label="Drop second"
        aria-label="Drop second"
        checked={decoder?.drop_second === true}
        onChange={(event) => setAt(['decoder', 'drop_second'], event.currentTarget.checked ? true : null)}
      />
    </Stack>
  );
}
