import { Group, Switch, TextInput } from '@mantine/core';
import { UNIT_DEBOUNCE_MS } from '../stream-item/stream-fields.js';
import { CheckedInput } from './CheckedInput.js';
import { formatBitrateK, numberChars, parseBitrateK, type Parsed } from './transcoder-validation.js';

interface BitrateFieldProps {
  errorId: string;
  value: number | 'copy' | undefined;
  onBitrate: (bps: number) => void;
  onCopy: (on: boolean) => void;
}

const format = (value: number | undefined) => formatBitrateK(value);
const parse = (text: string): Parsed<number | undefined> => parseBitrateK(text);

/** A bitrate typed in K (x1000, spec 001 §5) beside its 'Copy from origin' switch. */
export function BitrateField({ errorId, value, onBitrate, onCopy }: BitrateFieldProps) {
  const copy = value === 'copy';
  return (
    <Group gap="md" align="flex-end">
      {copy ? (
        <TextInput
          label="Bitrate"
          aria-label="Bitrate"
          value=""
          placeholder="copy"
          rightSection="K"
          disabled
          w={150}
        />
      ) : (
        <CheckedInput
          errorId={errorId}
          label="Bitrate"
          aria-label="Bitrate"
          inputMode="decimal"
          rightSection="K"
          value={value}
          format={format}
          parse={parse}
          onCommit={(bps) => {
            if (bps !== undefined) onBitrate(bps);
          }}
          filter={numberChars}
          debounceMs={UNIT_DEBOUNCE_MS}
          w={150}
        />
      )}
      <Switch
        label="Copy from origin"
        aria-label="Copy from origin"
        checked={copy}
        onChange={(event) => onCopy(event.currentTarget.checked)}
        mb={8}
      />
    </Group>
  );
}
