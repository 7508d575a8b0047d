import { Stack, Text, Title } from '@mantine/core';
import type { StreamStats } from '@sluice/api';
import { useState } from 'react';
import { useView } from '../../api/use-live.js';
import { archivePlaylistUrl } from './archive-url.js';
import { ArchivePlayer } from './ArchivePlayer.js';
import { DvrTimeline } from './DvrTimeline.js';
import { TimelineBoundary } from './TimelineBoundary.js';

type DvrInfo = NonNullable<StreamStats['dvr_info']>;
const NO_RANGES: NonNullable<DvrInfo['ranges']> = [];

/**
 * A stream's archive, shown only when its stats have dvr_info (spec 001 §2): the timeline, and the
 * player a click on it starts. The playlist is fixed at the click, so a growing archive does not
 * reload the player.
 */
export function DvrArchive({ name, statsPath }: { name: string; statsPath: string[] }) {
  const info = useView<DvrInfo>([...statsPath, 'dvr_info']);
  const [playing, setPlaying] = useState<{ fromS: number; src: string }>();
  if (info?.from === undefined) return null;
  const ranges = info.ranges ?? NO_RANGES;
  return (
    <Stack gap="sm" component="section" aria-label="DVR archive">
      <Title order={4}>Archive</Title>
      <TimelineBoundary>
        <DvrTimeline
          fromS={info.from}
          ranges={ranges}
          playingS={playing?.fromS}
          onPlay={(fromS) => setPlaying({ fromS, src: archivePlaylistUrl(name, fromS, ranges) })}
        />
      </TimelineBoundary>
      {playing ? (
        <ArchivePlayer key={playing.src} src={playing.src} />
      ) : (
        <Text size="sm">Click the archive on the timeline to play it from that moment.</Text>
      )}
    </Stack>
  );
}
