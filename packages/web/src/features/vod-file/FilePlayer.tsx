import { Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { playbackUrl } from '../media-list/play-url.js';
import { HlsVideo } from '../../components/HlsVideo.js';

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
  return (
    <Stack gap={4} maw={720}>
      <HlsVideo src={withAdminToken(playbackUrl(name), token)} />
    </Stack>
  );
}
