/** /{name}/whep of a stream (docs/media.md, WHEP playback); names may hold '/'. */
export function whepUrl(name: string): string {
  return `/${name.split('/').map(encodeURIComponent).join('/')}/whep`;
}

/** How long the browser gathers its candidates before the offer goes with what it has. */
const GATHER_WAIT_MS = 1000;

/**
 * One WHEP playback from the browser (RFC 9725): a recvonly offer for H.264 video and Opus audio,
 * POSTed to the stream's /whep; the answer's media go to `onStream`. `stop()` DELETEs the session.
 */
export async function startWhep(
  url: string,
  onStream: (stream: MediaStream) => void,
  onFailed: (why: string) => void,
): Promise<{ stop: () => void }> {
  const pc = new RTCPeerConnection();
  // Where the server's session is (its Location), once answered; DELETE ends it there too.
  const session: { location?: string; stopped: boolean } = { stopped: false };
  const release = () => {
    if (session.location)
      void fetch(new URL(session.location, window.location.href), { method: 'DELETE' }).catch(
        () => undefined,
      );
  };
  const stop = () => {
    if (session.stopped) return;
    session.stopped = true;
    pc.close();
    release();
  };
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.ontrack = (event) => onStream(event.streams[0] ?? new MediaStream([event.track]));
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === 'failed') onFailed('the WebRTC connection failed');
  };
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  if (session.stopped) return { stop };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp' },
    body: pc.localDescription?.sdp ?? '',
  });
  const body = await response.text();
  if (response.status !== 201) {
    stop();
    onFailed(body.trim() || `HTTP ${response.status}`);
    return { stop };
  }
  session.location = response.headers.get('location') ?? undefined;
  // Stopped while the answer was on its way: the server's session goes too.
  if (session.stopped) {
    release();
    return { stop };
  }
  await pc.setRemoteDescription({ type: 'answer', sdp: body });
  return { stop };
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, GATHER_WAIT_MS);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}
