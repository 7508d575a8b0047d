import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebcamSession } from './webcam-session.js';

/** Browser stand-ins: a camera with two tracks, a peer connection, a websocket. */
class FakeTrack {
  stopped = false;
  onended: (() => void) | null = null;
  constructor(readonly label: string) {}
  stop() {
    this.stopped = true;
  }
}

class FakePeer {
  static last: FakePeer | undefined;
  iceGatheringState = 'complete';
  connectionState = 'new';
  localDescription = { type: 'offer', sdp: 'v=0 offer' };
  remote: unknown;
  closed = false;
  onconnectionstatechange: (() => void) | null = null;
  constructor() {
    FakePeer.last = this;
  }
  addTransceiver() {}
  addEventListener() {}
  createOffer() {
    return Promise.resolve(this.localDescription);
  }
  setLocalDescription() {
    return Promise.resolve();
  }
  setRemoteDescription(description: unknown) {
    this.remote = description;
    return Promise.resolve();
  }
  close() {
    this.closed = true;
  }
}

class FakeSocket {
  static last: FakeSocket | undefined;
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
}

function browser(getUserMedia: () => Promise<unknown>) {
  vi.stubGlobal('navigator', { mediaDevices: { getUserMedia } });
  vi.stubGlobal('RTCPeerConnection', FakePeer);
  vi.stubGlobal('WebSocket', FakeSocket);
}

function camera() {
  const tracks = [new FakeTrack('fake video'), new FakeTrack('fake audio')];
  return { tracks, media: { getTracks: () => tracks } };
}

async function started() {
  const { tracks, media } = camera();
  browser(() => Promise.resolve(media));
  const onEnd = vi.fn();
  const session = new WebcamSession('ws://host/webrtc/publish/cam', { onMedia: vi.fn(), onEnd });
  await session.start();
  const socket = FakeSocket.last!;
  socket.onopen?.();
  return { session, socket, tracks, onEnd };
}

afterEach(() => vi.unstubAllGlobals());

describe('WebcamSession', () => {
  it('sends the offer once the socket opens and takes the answer', async () => {
    const { socket } = await started();
    expect(socket.url).toBe('ws://host/webrtc/publish/cam');
    expect(JSON.parse(socket.sent[0]!)).toEqual({ type: 'offer', sdp: 'v=0 offer' });
    socket.onmessage?.({ data: JSON.stringify({ type: 'answer', sdp: 'v=0 answer' }) });
    expect(FakePeer.last!.remote).toEqual({ type: 'answer', sdp: 'v=0 answer' });
  });

  it('stopped by hand: no error, camera released, socket and peer closed', async () => {
    const { session, socket, tracks, onEnd } = await started();
    session.stop();
    expect(onEnd).toHaveBeenCalledExactlyOnceWith(undefined);
    expect(tracks.every((t) => t.stopped)).toBe(true);
    expect(socket.closed).toBe(true);
    expect(FakePeer.last!.closed).toBe(true);
  });

  it("ends with the server's error when it refuses, or the close reason when the socket closes", async () => {
    const refused = await started();
    refused.socket.onmessage?.({
      data: JSON.stringify({ type: 'error', message: 'wrong or missing password' }),
    });
    refused.socket.onclose?.({ reason: 'wrong or missing password' });
    expect(refused.onEnd).toHaveBeenCalledExactlyOnceWith('wrong or missing password');
    expect(refused.tracks.every((t) => t.stopped)).toBe(true);

    const dropped = await started();
    dropped.socket.onclose?.({ reason: '' });
    expect(dropped.onEnd).toHaveBeenCalledExactlyOnceWith('Connection to the server closed');
  });

  it('ends when the camera fails, whether at the start or while publishing', async () => {
    browser(() => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')));
    const onEnd = vi.fn();
    await new WebcamSession('ws://x', { onMedia: vi.fn(), onEnd }).start();
    expect(onEnd).toHaveBeenCalledExactlyOnceWith('Camera access denied');

    const { socket, tracks, onEnd: ended } = await started();
    tracks[0]!.onended?.();
    expect(ended).toHaveBeenCalledExactlyOnceWith('Camera stopped: fake video');
    expect(socket.closed).toBe(true);
  });

  it('says the camera needs a secure page when the browser gives it none', async () => {
    vi.stubGlobal('navigator', {});
    const onEnd = vi.fn();
    await new WebcamSession('ws://x', { onMedia: vi.fn(), onEnd }).start();
    expect(onEnd).toHaveBeenCalledExactlyOnceWith('The camera is available only over HTTPS or on localhost');
  });
});
