import { Text } from '@mantine/core';
import { type CSSProperties, useEffect, useState } from 'react';
import { startWhep } from './whep-session.js';

/** The stream over WebRTC (WHEP): plays while shown, and ends its server session when it goes. */
export function WebrtcVideo({ src, style }: { src: string; style: CSSProperties }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  // Why the playback of `src` failed; another src starts clean.
  const [failure, setFailure] = useState<{ src: string; why: string } | undefined>();
  useEffect(() => {
    if (!video) return;
    let session: { stop: () => void } | undefined;
    let gone = false;
    startWhep(
      src,
      (stream) => {
        if (video.srcObject !== stream) video.srcObject = stream;
      },
      (why) => !gone && setFailure({ src, why }),
    ).then(
      (started) => {
        session = started;
        if (gone) started.stop();
      },
      (error: Error) => !gone && setFailure({ src, why: error.message }),
    );
    return () => {
      gone = true;
      session?.stop();
      video.srcObject = null;
    };
  }, [video, src]);
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
      {failure?.src === src && (
        <Text c="red" size="sm" role="alert">
          {failure.why}
        </Text>
      )}
    </>
  );
}
