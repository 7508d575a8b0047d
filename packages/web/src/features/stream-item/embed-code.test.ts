import { describe, expect, it } from 'vitest';
import { embedCode, embedUrl } from './embed-code.js';

describe('embed code', () => {
  it('points at embed.html with version 3 and autoplay, in a 640x480 iframe', () => {
    const url = embedUrl('http://h:8080', 'live/a b', true);
    expect(url).toBe('http://h:8080/live/a%20b/embed.html?version=3&autoplay=true');
    expect(embedCode(url)).toBe(
      '<iframe style="width:640px; height:480px;" allowfullscreen src="http://h:8080/live/a%20b/embed.html?version=3&autoplay=true"></iframe>',
    );
  });
});
