import { Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { playbackUrl } from './play-url.js';
import { useHlsPlayer } from './use-hls-player.js';

/** Plays a stream or a location's published stream over HLS, with a close control. */
export function PlayModal({ name, onClose }: { name: string | undefined; onClose: () => void }) {
  const token = useAdminToken();
  return (
    <Modal
      opened={name !== undefined}
      onClose={onClose}
      title={name}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {name !== undefined && <HlsVideo key={name} src={withAdminToken(playbackUrl(name), token)} />}
    </Modal>
  );
}

function HlsVideo({ src }: { src: string }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const error = useHlsPlayer(video, src);
  return (
    <>
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
    </>
  );
}
