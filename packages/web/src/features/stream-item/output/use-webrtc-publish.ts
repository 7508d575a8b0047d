import { useCallback, useEffect, useRef, useState } from 'react';
import { WebcamSession, whipUrl } from './webcam-session.js';

export type WebrtcPublishStatus = 'idle' | 'publishing';

export interface WebrtcPublish {
  status: WebrtcPublishStatus;
  /** Why the last publish ended, when it was not stopped by hand. */
  error: string | undefined;
  /** The camera and microphone while publishing, for the preview. */
  media: MediaStream | undefined;
  start(): void;
  stop(): void;
}

/**
 * WebRTC publishing of the webcam into stream `name` over WHIP (spec 001 §4: idle or publishing;
 * stops on connection loss, camera error, or stream name change). Unmounting stops it too.
 */
export function useWebrtcPublish(name: string, password: string | undefined): WebrtcPublish {
  const session = useRef<WebcamSession | undefined>(undefined);
  const [status, setStatus] = useState<WebrtcPublishStatus>('idle');
  const [error, setError] = useState<string | undefined>(undefined);
  const [media, setMedia] = useState<MediaStream | undefined>(undefined);

  const stop = useCallback(() => {
    session.current?.stop();
    session.current = undefined;
  }, []);

  const start = useCallback(() => {
    if (session.current) return;
    setError(undefined);
    setStatus('publishing');
    const current = new WebcamSession(whipUrl(window.location, name), password, {
      onMedia: setMedia,
      onEnd: (reason) => {
        if (session.current === current) session.current = undefined;
        setStatus('idle');
        setMedia(undefined);
        setError(reason);
      },
    });
    session.current = current;
    void current.start();
  }, [name, password]);

  // A new stream name (renamed, or another stream's page) ends the publish into the old one.
  useEffect(() => stop, [name, stop]);

  return { status, error, media, start, stop };
}
