import { config as configSchema } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig } from './index.js';

const read = (text: string) => parseConfigText(text).config;
const roundTrips = (config: Record<string, unknown>) => expect(read(serializeConfig(config))).toEqual(config);

describe('stream and live', () => {
  it('reads urls with typed options, pushes and the dvr line', () => {
    const { streams } = read(`stream sport {
  url udp://239.0.0.1:1234 priority=1 source_timeout=1m pids=0x100 tracks=1 user_agent="VLC 3" allow_subtitles=true custom=5;
  url "rtmp://h/app?a=1";
  push rtmp://cdn/live key=abc;
  dvr /storage 2d 90% dvr_replicate=true disk_space=10g;
  source_timeout 30s;
  static;
  disabled false;
  title "Sport 1";
  password 1234;
  protocols { hls; dash false; }
  cache { path /ssd; disk_limit 100g; time_limit 1h; }
}`) as Record<string, unknown>;
    expect(streams).toEqual({
      sport: {
        name: 'sport',
        position: 0,
        urls: [
          {
            url: 'udp://239.0.0.1:1234',
            priority: 1,
            source_timeout: 60,
            pids: '0x100',
            tracks: '1',
            user_agent: 'VLC 3',
            allow_subtitles: 'true',
            custom: 5,
          },
          { url: 'rtmp://h/app?a=1' },
        ],
        pushes: [{ url: 'rtmp://cdn/live', key: 'abc' }],
        dvr: {
          root: '/storage',
          dvr_limit: 172800,
          disk_limit: 90,
          dvr_replicate: true,
          disk_space: 10 * 1024 ** 3,
        },
        source_timeout: 30,
        static: true,
        disabled: false,
        title: 'Sport 1',
        password: '1234',
        protocols: { hls: true, dash: false },
        cache: { path: '/ssd', disk_limit: 100 * 1024 ** 3, time_limit: 3600 },
      },
    });
    expect(configSchema.safeParse({ streams }).success).toBe(true);
  });

  it('reads `dvr @NAME` as a reference and writes dvr settings back with units', () => {
    expect(read('stream a { dvr @main; }')).toMatchObject({ streams: { a: { dvr: { reference: 'main' } } } });
    const text = serializeConfig({
      streams: {
        a: {
          name: 'a',
          position: 0,
          dvr: { root: '/s', dvr_limit: 7200, disk_limit: 85.5, disk_space: 1024 },
        },
      },
    });
    expect(text).toBe('stream a {\n  dvr /s 2h 85.5% disk_space=1k;\n}\n');
  });

  it('writes dvr settings without a root as a block', () => {
    const config = { streams: { a: { name: 'a', position: 0, dvr: { disk_limit: 50, dvr_limit: 60 } } } };
    expect(serializeConfig(config)).toBe(
      'stream a {\n  dvr {\n    disk_limit 50%;\n    dvr_limit 1m;\n  }\n}\n',
    );
    roundTrips(config);
  });

  it('writes url options that are not plain values as a block under the url', () => {
    const config = {
      streams: { a: { name: 'a', position: 0, urls: [{ url: 'udp://h:1', nested: { x: 1 } }] } },
    };
    expect(serializeConfig(config)).toContain('url udp://h:1 {\n    nested {\n      x 1;\n    }\n  }');
    roundTrips(config);
  });

  it('writes plain-string urls as url lines', () => {
    expect(read(serializeConfig({ streams: { a: { urls: ['udp://h:1'] } } }))).toEqual({
      streams: { a: { name: 'a', position: 0, urls: [{ url: 'udp://h:1' }] } },
    });
  });

  it('orders items by position and omits key fields, positions and stats', () => {
    const text = serializeConfig({
      stats: { uptime: 1 },
      streams: { b: { name: 'b', position: 1, stats: { alive: true } }, a: { name: 'a', position: 0 } },
      lives: { pub: { prefix: 'pub', position: 0, password: '1', thumbnails: { enabled: true } } },
    });
    expect(text).toBe(
      'live pub {\n  password "1";\n  thumbnails {\n    enabled;\n  }\n}\n\nstream a {}\n\nstream b {}\n',
    );
  });
});

describe('other sections', () => {
  it('reads mirrors, keyed by their position', () => {
    expect(
      read('source rtmp://o1 rtmp://o2 { only a b; except c; cluster_key K; }\nsource http://o3;').sources,
    ).toEqual({
      '0': {
        position: 0,
        urls: ['rtmp://o1', 'rtmp://o2'],
        only: ['a', 'b'],
        except: ['c'],
        cluster_key: 'K',
      },
      '1': { position: 1, urls: ['http://o3'] },
    });
  });

  it('reads VOD locations: each path is a url', () => {
    expect(read('file vod { path /dir; path "/other dir"; download; read_queue 100; }').vods).toEqual({
      vod: {
        prefix: 'vod',
        position: 0,
        urls: [{ url: '/dir' }, { url: '/other dir' }],
        download: true,
        read_queue: 100,
      },
    });
  });

  it('reads DVR storage: disks by order, schedules as HHMM', () => {
    expect(
      read(
        'dvr main { root /storage; raid 0; active 2; disk sda mode=keep; disk sdb; schedule 0 2359; schedule 08:30 17:00; dvr_limit 7d; disk_limit 95%; }',
      ).dvrs,
    ).toEqual({
      main: {
        name: 'main',
        position: 0,
        root: '/storage',
        raid: 0,
        active: 2,
        disks: { sda: { position: 0, mode: 'keep' }, sdb: { position: 1 } },
        schedule: [
          [0, 2359],
          [830, 1700],
        ],
        dvr_limit: 604800,
        disk_limit: 95,
      },
    });
  });

  it('reads auth backend rules, and writes one value per line', () => {
    const text =
      'auth_backend ab { allow ip 10.0.0.0/8 192.168.0.0/16; deny token t1; deny country RU; allow ua "Mozilla/5.0 (X11)"; backend http://auth/check; allow default; }';
    const { auth_backends } = read(text);
    expect(auth_backends).toEqual({
      ab: {
        name: 'ab',
        position: 0,
        allow: { ips: ['10.0.0.0/8', '192.168.0.0/16'], uas: ['Mozilla/5.0 (X11)'] },
        deny: { tokens: ['t1'], countries: ['RU'] },
        backends: [{ url: 'http://auth/check' }],
        allow_default: true,
      },
    });
    expect(serializeConfig({ auth_backends })).toContain(
      '  allow ip 10.0.0.0/8;\n  allow ip 192.168.0.0/16;\n  allow ua "Mozilla/5.0 (X11)";\n',
    );
    roundTrips({
      auth_backends: {
        x: {
          name: 'x',
          position: 0,
          allow_default: false,
          allow: { ips: [] },
          deny: { tokens: ['t'], future: 1 },
        },
      },
    });
  });

  it('reads plugins, peers and web scripts', () => {
    expect(
      read(
        'plugin iptv { database /var/db/iptv.db; }\npeer a.example:8080;\npeer b.example;\nweb_script admin /var/www k=v n=1;\nweb_script bare;',
      ),
    ).toEqual({
      plugins: { iptv: { database: '/var/db/iptv.db' } },
      peers: {
        'a.example': { name: 'a.example', position: 0, port: 8080 },
        'b.example': { name: 'b.example', position: 1 },
      },
      web_scripts: {
        admin: { prefix: 'admin', position: 0, path: '/var/www', extra: { k: 'v', n: '1' } },
        bare: { prefix: 'bare', position: 1 },
      },
    });
  });

  it('keeps awkward peer hosts and web script values exact', () => {
    roundTrips({
      peers: {
        'h:80': { name: 'h:80', position: 0 },
        '1.5': { name: '1.5', position: 1, port: 80 },
        '[::1]': { name: '[::1]', position: 2, port: 8080 },
      },
      web_scripts: {
        p: { prefix: 'p', position: 0, path: 'k=v', extra: { 'not an option': 'x' } },
        q: { prefix: 'q', position: 1, extra: {} },
      },
    });
  });
});
