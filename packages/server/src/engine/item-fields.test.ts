import { describe, expect, it } from 'vitest';
import { mirroredStream } from '../cluster/mirror-plan.js';
import { publishedSpec, streamSpec } from './stream-spec.js';

// The field review (test/field-review) names these for the settings a location or a mirror hands
// to its streams; what each setting then does is proven on configured streams.
describe('settings a location or mirror hands its streams', () => {
  it("a published stream takes its location's previews and session limit", () => {
    const spec = publishedSpec('live/a', { thumbnails: { enabled: true }, auth: { max_sessions: 3 } });
    expect(spec.thumbnails).toBe(true);
    expect(spec.maxSessions).toBe(3);
    expect(publishedSpec('live/b', {}).thumbnails).toBe(false);
  });

  it("a stream's auth max_sessions limits its sessions when it sets no max_sessions of its own", () => {
    expect(streamSpec('a', { auth: { max_sessions: 4 } }).maxSessions).toBe(4);
    expect(streamSpec('b', { max_sessions: 2, auth: { max_sessions: 4 } }).maxSessions).toBe(2);
  });

  it("a mirrored stream takes its mirror's previews and play authorization", () => {
    const auth = { url: 'http://gate/', max_sessions: 2 };
    const stream = mirroredStream(
      { urls: ['http://o1'], thumbnails: { enabled: true }, auth },
      'x',
      undefined,
    );
    expect(stream.thumbnails).toEqual({ enabled: true });
    expect(stream.auth).toEqual(auth);
  });
});
