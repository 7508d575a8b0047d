import { EditOnly } from '../../components/EditOnly.js';
import { ReadOnlyFields } from '../../components/ReadOnlyFields.js';
import { Button, Collapse, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { KeyValueEditor } from '../../components/KeyValueEditor.js';
import { BitrateField } from './BitrateField.js';
import { TrackEncodingFields } from './TrackEncodingFields.js';
import { TrackLogoFields } from './TrackLogoFields.js';
import { TrackSizeFields } from './TrackSizeFields.js';
import { isAuto, type VideoTrack, videoCopyOff, videoCopyOn } from './transcoder-model.js';

interface VideoTrackCardProps {
  index: string;
  track: VideoTrack;
  hw: string | undefined;
  expanded: boolean;
  onToggle: () => void;
  onDuplicate: () => void;
  onRemove: () => void;
  /** Sets one field of this track; null removes it. */
  set: (key: string, value: unknown) => void;
  replaceTrack: (track: VideoTrack) => void;
}

/** The line a collapsed track shows: its bitrate and size. */
function summary(track: VideoTrack): string {
  const bitrate = track.bitrate === 'copy' ? 'copy' : `${track.bitrate / 1000}k`;
  const { width, height } = track.size ?? {};
  const size =
    isAuto(width) && isAuto(height)
      ? ''
      : ` ${isAuto(width) ? 'auto' : width}x${isAuto(height) ? 'auto' : height}`;
  return `${bitrate}${size}${track.codec ? ` ${track.codec}` : ''}`;
}

/**
 * One video track (spec 001 §4 "Video track"): its header with Duplicate and Remove, its fields
 * below while expanded. Collapsed fields stay mounted (hidden), so a message in a collapsed track
 * still keeps Save disabled.
 */
export function VideoTrackCard(props: VideoTrackCardProps) {
  const { index, track, hw, expanded, set, replaceTrack } = props;
  const [backup, setBackup] = useState<VideoTrack | undefined>(undefined);
  const errorId = `video:${index}`;
  const onCopy = (on: boolean) => {
    if (on) {
      const next = videoCopyOn(track);
      setBackup(next.backup);
      replaceTrack(next.track);
    } else replaceTrack(videoCopyOff(track, backup));
  };
  return (
    <Paper withBorder p="sm" component="section" aria-label={`Video track ${index}`}>
      <Group justify="space-between">
        <Button variant="subtle" onClick={props.onToggle} aria-expanded={expanded}>
          Track {index}: {summary(track)}
        </Button>
        <EditOnly>
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={props.onDuplicate}>
              Duplicate
            </Button>
            <Button variant="default" color="red" size="xs" onClick={props.onRemove}>
              Remove
            </Button>
          </Group>
        </EditOnly>
      </Group>
      <Collapse expanded={expanded} transitionDuration={0} keepMountedMode="display-none">
        <ReadOnlyFields>
          <Stack gap="sm" mt="sm">
            <BitrateField
              errorId={`${errorId}:bitrate`}
              value={track.bitrate}
              onBitrate={(bps) => set('bitrate', bps)}
              onCopy={onCopy}
            />
            {track.bitrate !== 'copy' && (
              <>
                <TrackEncodingFields
                  errorId={errorId}
                  track={track}
                  hw={hw}
                  set={set}
                  replaceTrack={replaceTrack}
                />
                <TrackSizeFields errorId={errorId} track={track} set={set} />
                <TrackLogoFields logo={track.logo} onChange={(logo) => set('logo', logo)} />
                <KeyValueEditor
                  name={`${errorId}:extra`}
                  label={<Text size="sm">Extra options</Text>}
                  value={track.extra}
                  onChange={(extra) => set('extra', extra)}
                />
              </>
            )}
          </Stack>
        </ReadOnlyFields>
      </Collapse>
    </Paper>
  );
}
