import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { useHlsPlayer } from '../media-list/use-hls-player.js';
import { fileOutputLinks } from './browser-paths.js';

/**
 * The open video beside the list (spec 002 §2): a player of its HLS, with the admin token the
 * console's other players use, and the output links per protocol (shown without the token).
 */
export function VideoPanel({ name, playPath }: { name: string; playPath: string }) {
  const token = useAdminToken();
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const error = useHlsPlayer(video, withAdminToken(`${playPath}/index.m3u8`, token));
  return (
    <Stack gap="xs" component="section" aria-label={`video ${name}`} w={480}>
      <Title order={4}>{name}</Title>
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
      <Stack gap={2} aria-label="output links">
        {fileOutputLinks(window.location.origin, playPath).map(({ label, url }) => (
          <Group key={label} gap="xs" wrap="nowrap">
            <Text size="sm" w={70}>
              {label}
            </Text>
            <Anchor href={url} target="_blank" rel="noreferrer" size="sm" aria-label={`${label} link`}>
              {url}
            </Anchor>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}
