import { Modal } from '@mantine/core';
import { useAdminToken, withAdminToken } from '../auth/admin-token.js';
import { LiveVideo } from './LiveVideo.js';
import { playbackUrl } from './play-url.js';

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
      {name !== undefined && (
        <LiveVideo
          key={name}
          src={withAdminToken(playbackUrl(name), token)}
          style={{ aspectRatio: '16 / 9' }}
        />
      )}
    </Modal>
  );
}
