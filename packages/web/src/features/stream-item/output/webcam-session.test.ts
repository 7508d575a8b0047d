import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebcamSession, whipUrl } from './webcam-session.js';

/** Browser stand-ins: a camera with two tracks, a peer connection, fetch. */
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

interface Call {
  url: string;
  init: { method: string; headers?: Record<string, string>; body?: string };
}

/** fetch: the WHIP endpoint answers `answer` to the POST, and takes the DELETE. */
function server(answer: { status: number; body: string; location?: string }) {
  const calls: Call[] = [];
  const fetch = vi.fn((url: string, init: Call['init']) => {
    calls.push({ url, init });
    const headers = new Headers(answer.location ? { location: answer.location } : {});
    const reply = init.method === 'POST' ? answer : { status: 200, body: '' };
    return Promise.resolve({ status: reply.status, headers, text: () => Promise.resolve(reply.body) });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

function browser(getUserMedia: () => Promise<unknown>) {
  vi.stubGlobal('navigator', { mediaDevices: { getUserMedia } });
  vi.stubGlobal('RTCPeerConnection', FakePeer);
}

function camera() {
  const tracks = [new FakeTrack('fake video'), new FakeTrack('fake audio')];
  return { tracks, media: { getTracks: () => tracks } };
}

const URL_ = 'http://host/cam/whip';

async function started(answer = { status: 201, body: 'v=0 answer', location: '/cam/whip/abc' }) {
  const { tracks, media } = camera();
  browser(() => Promise.resolve(media));
  const calls = server(answer);
  const onEnd = vi.fn();
  const session = new WebcamSession(URL_, 's3cret', { onMedia: vi.fn(), onEnd });
  await session.start();
  return { session, calls, tracks, onEnd };
}

afterEach(() => vi.unstubAllGlobals());

describe('whipUrl', () => {
  it("is the stream's /whip on this server, each name segment encoded", () => {
    expect(whipUrl({ origin: 'https://media.example' }, 'live/my cam')).toBe(
      'https://media.example/live/my%20cam/whip',
    );
  });
});

describe('WebcamSession', () => {
  it('POSTs the offer as application/sdp with the password as a Bearer token, and takes the answer', async () => {
    const { calls } = await started();
    expect(calls[0]).toEqual({
      url: URL_,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: 'Bearer s3cret' },
        body: 'v=0 offer',
      },
    });
    expect(FakePeer.last!.remote).toEqual({ type: 'answer', sdp: 'v=0 answer' });
  });

  it('stopped by hand: no error, camera released, peer closed, and the publish DELETEd', async () => {
    const { session, calls, tracks, onEnd } = await started();
    session.stop();
    expect(onEnd).toHaveBeenCalledExactlyOnceWith(undefined);
    expect(tracks.every((t) => t.stopped)).toBe(true);
    expect(FakePeer.last!.closed).toBe(true);
    expect(calls[1]).toEqual({
      url: 'http://host/cam/whip/abc',
      init: { method: 'DELETE', keepalive: true },
    });
  });

  it("ends with the server's message when it refuses, or when the connection fails", async () => {
    const refused = await started({ status: 403, body: 'wrong or missing password\n', location: '' });
    expect(refused.onEnd).toHaveBeenCalledExactlyOnceWith('wrong or missing password');
    expect(refused.tracks.every((t) => t.stopped)).toBe(true);
    expect(refused.calls).toHaveLength(1);

    const dropped = await started();
    FakePeer.last!.connectionState = 'failed';
    FakePeer.last!.onconnectionstatechange?.();
    expect(dropped.onEnd).toHaveBeenCalledExactlyOnceWith('Connection failed');
    // The server ended it too (it saw the same connection end): nothing to DELETE.
    expect(dropped.calls.map((c) => c.init.method)).toEqual(['POST']);
  });

  it('ends when the camera fails, whether at the start or while publishing', async () => {
    browser(() => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')));
    const onEnd = vi.fn();
    await new WebcamSession(URL_, undefined, { onMedia: vi.fn(), onEnd }).start();
    expect(onEnd).toHaveBeenCalledExactlyOnceWith('Camera access denied');

    const { calls, tracks, onEnd: ended } = await started();
    tracks[0]!.onended?.();
    expect(ended).toHaveBeenCalledExactlyOnceWith('Camera stopped: fake video');
    expect(calls.at(-1)?.init.method).toBe('DELETE');
  });

  it('says the camera needs a secure page when the browser gives it none', async () => {
    vi.stubGlobal('navigator', {});
    const onEnd = vi.fn();
    await new WebcamSession(URL_, undefined, { onMedia: vi.fn(), onEnd }).start();
    expect(onEnd).toHaveBeenCalledExactlyOnceWith('The camera is available only over HTTPS or on localhost');
  });
});
