import { webrtcPublishReply } from '@sluice/api';

/** The camera size asked for: the preview is 640x480 (spec 001 §2 Output). */
export const WEBCAM_WIDTH = 640;
export const WEBCAM_HEIGHT = 480;

export interface WebcamSessionEvents {
  /** The camera and microphone are on: show them. */
  onMedia(media: MediaStream): void;
  /** The publish ended; `error` says why when it was not asked for (camera, connection, server). */
  onEnd(error: string | undefined): void;
}

/**
 * One publish of the webcam: camera and microphone, a peer connection sending them, and the
 * publish socket carrying the offer and answer (spec 001 §7). The server gathers its candidates
 * in full, so ours are too before the offer goes. It ends on stop(), when the socket closes, or
 * when the camera fails; each releases everything (camera light off).
 */
export class WebcamSession {
  private media: MediaStream | undefined;
  private pc: RTCPeerConnection | undefined;
  private socket: WebSocket | undefined;
  private ended = false;

  constructor(
    private readonly url: string,
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
        if (pc.connectionState === 'failed') this.end('Connection failed');
      };
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc);
      if (!this.ended) this.openSocket(pc);
    } catch (error) {
      this.end(`Connection failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Stops publishing as asked: no error. */
  stop(): void {
    this.end(undefined);
  }

  private openSocket(pc: RTCPeerConnection): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    let reason: string | undefined;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'offer', sdp: pc.localDescription?.sdp ?? '' }));
    socket.onmessage = (event: MessageEvent) => {
      const parsed = webrtcPublishReply.safeParse(parseJson(event.data));
      if (!parsed.success) return;
      if (parsed.data.type === 'error') reason = parsed.data.message;
      else void pc.setRemoteDescription(parsed.data).catch((error: Error) => this.end(error.message));
    };
    socket.onclose = (event: CloseEvent) =>
      this.end(reason ?? (event.reason || 'Connection to the server closed'));
  }

  private end(error: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    if (this.socket) this.socket.onclose = null;
    this.socket?.close();
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

function parseJson(data: unknown): unknown {
  try {
    return typeof data === 'string' ? JSON.parse(data) : undefined;
  } catch {
    return undefined;
  }
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
