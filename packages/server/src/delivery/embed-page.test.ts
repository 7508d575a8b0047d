import { describe, expect, it } from 'vitest';
import { embedPage } from './embed-page.js';

describe('embedPage', () => {
  it('plays the stream HLS with the token, muted autoplay when asked', () => {
    const page = embedPage('live/cam', new URLSearchParams('version=3&autoplay=true&token=a b'));
    expect(page).toContain('<title>live/cam</title>');
    expect(page).toContain('const source = "index.m3u8?token=a%20b";');
    expect(page).toContain('<video id="player" controls playsinline autoplay muted>');
    expect(page).toContain('<script src="/embed/hls.min.js"></script>');
  });

  it('neither autoplays unasked nor lets a name or token break out of the page', () => {
    const page = embedPage('<x>', new URLSearchParams('token=</script>'));
    expect(page).toContain('<title>&lt;x&gt;</title>');
    expect(page).not.toContain('</script>"');
    expect(page).toContain('<video id="player" controls playsinline>');
  });
});
