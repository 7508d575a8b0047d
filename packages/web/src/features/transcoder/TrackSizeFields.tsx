import { Group } from '@mantine/core';
import { CheckedInput } from './CheckedInput.js';
import { GroupInputs } from './GroupInputs.js';
import { isAuto, setDimension, type VideoTrack } from './transcoder-model.js';
import { ASPECT_REQUIRED, numberChars, parseDimension } from './transcoder-validation.js';

interface TrackSizeProps {
  errorId: string;
  track: VideoTrack;
  set: (key: string, value: unknown) => void;
}

/** -1, 0 and nothing read as empty, with 'auto' shown in its place. */
const formatDimension = (value: number | null | undefined) => (isAuto(value) ? '' : String(value));
const parseWidth = (text: string) => parseDimension(text, 'Width');
const parseHeight = (text: string) => parseDimension(text, 'Height');
const ASPECT_FIELDS = [
  { key: 'x', label: 'Aspect x' },
  { key: 'y', label: 'Aspect y' },
] as const;

/** Width and height (spec 001 §5: never both auto) and the aspect ratio. */
export function TrackSizeFields({ errorId, track, set }: TrackSizeProps) {
  const size = track.size;
  const dimension = (axis: 'width' | 'height') => (value: number | null) =>
    set('size', setDimension(size, axis, value) ?? null);
  return (
    <Group gap="md" align="flex-start">
      <CheckedInput
        errorId={`${errorId}:width`}
        label="Width"
        aria-label="Width"
        placeholder="auto"
        value={isAuto(size?.width) ? null : (size?.width ?? null)}
        format={formatDimension}
        parse={parseWidth}
        onCommit={dimension('width')}
        filter={numberChars}
        w={130}
      />
      <CheckedInput
        errorId={`${errorId}:height`}
        label="Height"
        aria-label="Height"
        placeholder="auto"
        value={isAuto(size?.height) ? null : (size?.height ?? null)}
        format={formatDimension}
        parse={parseHeight}
        onCommit={dimension('height')}
        filter={numberChars}
        w={130}
      />
      <GroupInputs
        errorId={`${errorId}:aspect`}
        fields={ASPECT_FIELDS}
        value={track.aspect}
        requiredMessage={ASPECT_REQUIRED}
        onCommit={(aspect) => set('aspect', aspect)}
      />
    </Group>
  );
}
