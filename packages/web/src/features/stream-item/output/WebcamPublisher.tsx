import { Button, Group, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useWebrtcPublish } from './use-webrtc-publish.js';
import { WEBCAM_HEIGHT, WEBCAM_WIDTH } from './webcam-session.js';

/** Publishing block: the webcam published into the stream over WebRTC, with its 640x480 preview. */
export function WebcamPublisher({ name, password }: { name: string; password: string | undefined }) {
  const { status, error, media, start, stop } = useWebrtcPublish(name, password);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = media ?? null;
  }, [media]);
  const publishing = status === 'publishing';
  return (
    <Stack gap="xs" aria-label="webrtc publishing" data-status={status}>
      <Group gap="sm">
        <Text fw={500}>WebRTC publishing from webcam</Text>
        {publishing ? (
          <Button size="xs" color="red" variant="default" onClick={stop}>
            Stop publishing
          </Button>
        ) : (
          <Button size="xs" variant="default" onClick={start}>
            Start publishing
          </Button>
        )}
      </Group>
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
      {publishing && (
        // Muted: the microphone is published, not played back into the room.
        <video
          ref={video}
          aria-label="webcam preview"
          width={WEBCAM_WIDTH}
          height={WEBCAM_HEIGHT}
          autoPlay
          muted
          playsInline
          style={{ background: 'black' }}
        />
      )}
    </Stack>
  );
}
