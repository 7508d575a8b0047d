import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { playbackUrl } from '../media-list/play-url.js';
import { useHlsPlayer } from '../media-list/use-hls-player.js';

/**
 * The file's player: HLS of /{PREFIX/PATH}/index.m3u8 through hls.js, with the admin token past play
 * authorization; its controls seek. It starts on a click, so opening the page opens no session.
 */
export function FilePlayer({ name }: { name: string }) {
  const [playing, setPlaying] = useState(false);
  const token = useAdminToken();
  if (!playing)
    return (
      <Button variant="default" w="fit-content" onClick={() => setPlaying(true)}>
        Play
      </Button>
    );
  return <HlsVideo src={withAdminToken(playbackUrl(name), token)} />;
}

function HlsVideo({ src }: { src: string }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const error = useHlsPlayer(video, src);
  return (
    <Stack gap={4} maw={720}>
      <video
        ref={setVideo}
        aria-label="player"
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
    </Stack>
  );
}
