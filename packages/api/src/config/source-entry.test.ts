import { describe, expect, it } from 'vitest';
import { config } from './config.js';

const withUserAgent = (userAgent: string) =>
  config.safeParse({ streams: { cam: { urls: [{ url: 'hls://origin/cam.m3u8', user_agent: userAgent }] } } });

describe('source user_agent (an HTTP request header)', () => {
  it('takes an ordinary user agent', () => {
    expect(withUserAgent('Mozilla/5.0 (X11; Linux x86_64) SmartTV/1.0').success).toBe(true);
  });

  it('refuses CR/LF (a header of the value’s choosing), with a message naming the field', () => {
    const parsed = withUserAgent('VLC\r\nX-Forwarded-For: 10.0.0.1');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ['streams', 'cam', 'urls', 0, 'user_agent'],
        message:
          'user_agent must not contain control characters (CR, LF, tab…): they would split the request header',
      }),
    ]);
  });

  it('refuses a lone LF, a NUL and DEL too', () => {
    for (const bad of ['a\nb', 'a\u0000b', 'a\u007fb']) expect(withUserAgent(bad).success).toBe(false);
  });
});
