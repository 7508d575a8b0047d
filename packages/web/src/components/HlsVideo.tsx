import { Text } from '@mantine/core';
import { useState } from 'react';
import { useHlsPlayer } from '../features/media-list/use-hls-player.js';

/**
 * A recorded or on-demand playlist in hls.js (the DVR archive, a VOD file): a 16:9 video with its
 * controls (they seek), and hls.js's error under it. Live streams use LiveVideo (live edge, pauses
 * off screen). `src` carries the admin token where play authorization wants one.
 */
export function HlsVideo({ src, label = 'player' }: { src: string; label?: string }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const error = useHlsPlayer(video, src);
  return (
    <>
      <video
        ref={setVideo}
        aria-label={label}
        muted
        autoPlay
        playsInline
        controls
        style={{ width: '100%', aspectRatio: '16 / 9', background: 'black' }}
      />
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}
