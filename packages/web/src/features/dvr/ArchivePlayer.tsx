import { Text } from '@mantine/core';
import { useState } from 'react';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { useHlsPlayer } from '../media-list/use-hls-player.js';

/** Plays an archive playlist with the admin token the live player uses (spec 001 §6). */
export function ArchivePlayer({ src }: { src: string }) {
  const token = useAdminToken();
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const error = useHlsPlayer(video, withAdminToken(src, token));
  return (
    <div>
      <video
        ref={setVideo}
        aria-label="archive player"
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
    </div>
  );
}
