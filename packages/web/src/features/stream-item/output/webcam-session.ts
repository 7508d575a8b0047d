/** The camera size asked for: the preview is 640x480 (spec 001 §2 Output). */
export const WEBCAM_WIDTH = 640;
export const WEBCAM_HEIGHT = 480;

export interface WebcamSessionEvents {
  /** The camera and microphone are on: show them. */
  onMedia(media: MediaStream): void;
  /** The publish ended; `error` says why when it was not asked for (camera, connection, server). */
  onEnd(error: string | undefined): void;
}

/** The stream's WHIP endpoint on this server: /{name}/whip (RFC 9725). */
export function whipUrl(page: { origin: string }, name: string): string {
  return `${page.origin}/${name.split('/').map(encodeURIComponent).join('/')}/whip`;
}

/**
 * One publish of the webcam: camera and microphone, a peer connection sending them, and WHIP
 * (RFC 9725) carrying the offer and answer: POST the offer, the answer comes back with the
 * publish's resource (Location), DELETE on it ends the publish. The server gathers its candidates
 * in full, and ours are too before the offer goes (no trickle). It ends on stop(), when the
 * connection fails or closes, or when the camera fails; each releases everything (camera light off).
 */
export class WebcamSession {
  private media: MediaStream | undefined;
  private pc: RTCPeerConnection | undefined;
  /** The publish's WHIP resource, once the server answered. */
  private resource: string | undefined;
  private ended = false;

  constructor(
    private readonly url: string,
    /** The stream's publish password, sent as Authorization: Bearer (not in the URL). */
    private readonly password: string | undefined,
    private readonly events: WebcamSessionEvents,
  ) {}

  async start(): Promise<void> {
    // Browsers give pages the camera only in a secure context (HTTPS, or localhost).
    if (!(navigator.mediaDevices as MediaDevices | undefined))
      return this.end('The camera is available only over HTTPS or on localhost');
    let media: MediaStream;
    try {
      media = await navigator.mediaDevices.getUserMedia({
        video: { width: WEBCAM_WIDTH, height: WEBCAM_HEIGHT },
        audio: true,
      });
    } catch (error) {
      return this.end(cameraError(error));
    }
    if (this.ended) return stopTracks(media);
    this.media = media;
    this.events.onMedia(media);
    for (const track of media.getTracks()) track.onended = () => this.end(`Camera stopped: ${track.label}`);
    try {
      const pc = new RTCPeerConnection();
      this.pc = pc;
      for (const track of media.getTracks())
        pc.addTransceiver(track, { direction: 'sendonly', streams: [media] });
      pc.onconnectionstatechange = () => {
        const state = pc.connectionState;
        if (state !== 'failed' && state !== 'closed') return;
        // The server's side of the connection ended as well (it ends the publish on it): no DELETE.
        this.resource = undefined;
        this.end(state === 'failed' ? 'Connection failed' : 'Connection to the server closed');
      };
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc);
      if (!this.ended) await this.offer(pc);
    } catch (error) {
      this.end(`Connection failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Stops publishing as asked: no error. */
  stop(): void {
    this.end(undefined);
  }

  /** POSTs the offer; the answer is taken, or the server's refusal ends the publish. */
  private async offer(pc: RTCPeerConnection): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/sdp' };
    if (this.password) headers.authorization = `Bearer ${this.password}`;
    const response = await fetch(this.url, { method: 'POST', headers, body: pc.localDescription?.sdp ?? '' });
    const text = await response.text();
    if (response.status !== 201) return this.end(text.trim() || `The server refused: ${response.status}`);
    const location = response.headers.get('location');
    this.resource = location ? new URL(location, this.url).toString() : undefined;
    // Stopped while the answer was on its way: the publish it made is ended too.
    if (this.ended) return this.release();
    await pc.setRemoteDescription({ type: 'answer', sdp: text });
  }

  /** Ends the publish on the server (WHIP DELETE); the page may be closing, so keepalive. */
  private release(): void {
    if (this.resource)
      void fetch(this.resource, { method: 'DELETE', keepalive: true }).catch(() => undefined);
    this.resource = undefined;
  }

  private end(error: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
    if (this.pc) this.pc.onconnectionstatechange = null;
    this.pc?.close();
    if (this.media) stopTracks(this.media);
    this.events.onEnd(error);
  }
}

const stopTracks = (media: MediaStream) => {
  for (const track of media.getTracks()) {
    track.onended = null;
    track.stop();
  }
};

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') resolve();
    });
  });
}

/** getUserMedia's failures, said plainly. */
function cameraError(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'NotAllowedError') return 'Camera access denied';
    if (error.name === 'NotFoundError') return 'No camera or microphone found';
    if (error.name === 'NotReadableError') return 'Camera is in use by another program';
    return `Camera error: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
