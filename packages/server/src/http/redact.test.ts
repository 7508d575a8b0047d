import { describe, expect, it } from 'vitest';
import { plantSecrets } from '../../test/security-secrets-plants.js';
import { HIDDEN, hideInText, hideInUrl, redactSecrets } from './redact.js';

describe('redactSecrets (what a view-only caller reads)', () => {
  it('hides every planted secret of the table and keeps the rest readable', () => {
    const { config, secrets } = plantSecrets('a');
    const before = JSON.stringify(config);
    const shown = JSON.stringify(redactSecrets(config));
    for (const secret of secrets) expect(shown, secret).not.toContain(secret);
    expect(JSON.stringify(config)).toBe(before);
    expect(shown).toContain(`http://user:${HIDDEN}@127.0.0.1:9/app/s?token=${HIDDEN}`);
    expect(shown).toContain('"note":"visible"');
    expect(shown).not.toContain('edit_auth');
  });

  it('hides a secret in a delta that touches only it, and in runtime stats', () => {
    const delta = {
      streams: {
        cam: {
          password: 'pw1',
          stats: {
            url: 'rtmp://u:pw2@h/app',
            source_error: "can't open rtmp://u:pw3@h/app?key=pw4: refused",
            pushes: [{ url: 'srt://h:1?passphrase=pw5', error: 'x' }],
          },
        },
      },
      lives: { live: { streams: { a: { stats: { url: 'http://tok6@h/a' } } } } },
      auth_backends: { b: { allow: { tokens: ['pw7', 'pw8'] } } },
      cluster_key: null,
    };
    const shown = JSON.stringify(redactSecrets(delta));
    for (let i = 1; i <= 8; i++) expect(shown).not.toContain(`pw${i}`);
    expect(shown).not.toContain('tok6');
    expect(redactSecrets(delta).cluster_key).toBeNull();
    expect(redactSecrets({ edit_auth: null })).toEqual({});
  });

  it('shares what holds no secret', () => {
    const title = { title: 'Lobby', urls: [{ url: 'udp://239.0.0.1:1234' }], stats: { url: 'test://' } };
    const data = { streams: { a: title, b: { password: 'x' } }, stats: { total_streams: 2 } };
    const shown = redactSecrets(data) as typeof data;
    expect(shown.streams.a).toBe(title);
    expect(shown.stats).toBe(data.stats);
    expect(redactSecrets({ http: [80] })).toEqual({ http: [80] });
  });

  it('keeps the parts of a url that say where it points', () => {
    expect(hideInUrl('securetoken://k3y')).toBe(`securetoken://${HIDDEN}`);
    expect(hideInUrl('auth://backend1')).toBe('auth://backend1');
    expect(hideInUrl('udp://239.0.0.1:1234')).toBe('udp://239.0.0.1:1234');
    expect(hideInUrl('test://?tone=440&size=320x180')).toBe('test://?tone=440&size=320x180');
    expect(hideInUrl('rtmp://me:p@ss@h:1935/app/s')).toBe(`rtmp://me:${HIDDEN}@h:1935/app/s`);
    expect(hideInUrl('http://h/a?a=1&access_token=z&b=2')).toBe(`http://h/a?a=1&access_token=${HIDDEN}&b=2`);
    expect(hideInText('from http://u:v@h/x and rtmp://h2/y')).toBe(
      `from http://u:${HIDDEN}@h/x and rtmp://h2/y`,
    );
  });
});
