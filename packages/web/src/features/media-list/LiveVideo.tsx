import { Text } from '@mantine/core';
import { type CSSProperties, useState } from 'react';
import { useLiveHlsPlayer, WAITING_TEXT } from './use-live-hls-player.js';

/**
 * A live stream's video (Overview player, play modal): plays from the live edge while on screen,
 * loads nothing while out of view, and says it is waiting while the stream does not answer.
 */
export function LiveVideo({ src, style }: { src: string; style: CSSProperties }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const waiting = useLiveHlsPlayer(video, src);
  return (
    <>
      <video
        ref={setVideo}
        aria-label="player"
        muted
        autoPlay
        playsInline
        controls
        style={{ width: '100%', background: 'black', ...style }}
      />
      {waiting && (
        <Text c="dimmed" size="sm" role="status">
          {WAITING_TEXT}
        </Text>
      )}
    </>
  );
}
