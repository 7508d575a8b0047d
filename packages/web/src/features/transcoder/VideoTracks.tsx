import { EditOnly } from '../../components/EditOnly.js';
import { Stack, Title } from '@mantine/core';
import { AddTrackButton } from './AddTrackButton.js';
import { addTrack, duplicateTrack, removeTrack, videoTracks } from './transcoder-model.js';
import type { TranscoderAccess } from './use-transcoder.js';
import { VideoTrackCard } from './VideoTrackCard.js';

interface VideoTracksProps {
  transcoder: TranscoderAccess;
  /** The one track shown open (spec 001 §4: one at a time). */
  expanded: string | null;
  onExpand: (index: string | null) => void;
}

/** 'Add video track' and the tracks by index; a track added or duplicated opens, the others close. */
export function VideoTracks({ transcoder, expanded, onExpand }: VideoTracksProps) {
  const { value, replace, setAt } = transcoder;
  if (!value) return null;
  const hw = value.global?.hw;
  return (
    <Stack gap="sm">
      <Title order={4}>Video tracks</Title>
      <EditOnly>
        <AddTrackButton
          onAdd={(preset) => {
            const added = addTrack(value, preset);
            replace(added.transcoder);
            onExpand(added.index);
          }}
        />
      </EditOnly>
      {videoTracks(value).map(([index, track]) => (
        <VideoTrackCard
          key={index}
          index={index}
          track={track}
          hw={hw}
          expanded={expanded === index}
          onToggle={() => onExpand(expanded === index ? null : index)}
          onDuplicate={() => {
            const copy = duplicateTrack(value, index);
            replace(copy.transcoder);
            onExpand(copy.index);
          }}
          onRemove={() => replace(removeTrack(value, index))}
          set={(key, next) => setAt(['video', index, key], next)}
          replaceTrack={(next) => setAt(['video', index], next)}
        />
      ))}
    </Stack>
  );
}
