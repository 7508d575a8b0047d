import { describe, expect, it } from 'vitest';
import { parseConfigText, serializeConfig } from '../config/text/index.js';
import { escapeLabel, metricsBody, type MetricsSources } from './metrics-text.js';

const metricsText = (sources: MetricsSources) => metricsBody(sources).toString('utf8');

const stats = {
  version: '1.2.3',
  build: 0,
  uptime: 42,
  total_streams: 3,
  online_streams: 1,
  total_clients: 2,
  input_kbit: 1500,
  output_kbit: 3000,
  opened_files: 0,
  retroview_enabled: false,
  retroview_configured: false,
  status: {},
};

describe('metrics text', () => {
  it('one family per metric, each stream a line labelled by its name, published streams included', () => {
    const text = metricsText({
      system: undefined,
      view: {
        stats,
        streams: {
          cam: {
            stats: {
              alive: true,
              bitrate: 1500,
              out_bandwidth: 3000,
              client_count: 2,
              bytes_in: 10,
              retry_count: 1,
              dvr_info: { disk_size: 1000, depth: 60 },
              pushes: [{ url: 'rtmp://x/secret', status: 'running', bytes: 5, retries: 0 }],
            },
          },
          idle: {},
        },
        lives: { live: { streams: { 'live/a': { stats: { alive: false, source_error: 'refused' } } } } },
      },
    });
    expect(text).toContain('sluice_stream_alive{stream="cam"} 1\n');
    expect(text).toContain('sluice_stream_alive{stream="idle"} 0\n');
    expect(text).toContain('sluice_stream_source_error{stream="live/a"} 1\n');
    expect(text).toContain('sluice_stream_input_bytes_per_second{stream="cam"} 187500\n');
    expect(text).toContain('sluice_stream_dvr_depth_seconds{stream="cam"} 60\n');
    expect(text).toContain('sluice_push_state{stream="cam",push="0",state="running"} 1\n');
    expect(text).toContain('sluice_output_bytes_per_second 375000\n');
    // A location's prefix is no stream; a push's url (it may hold a password) is no label.
    expect(text).not.toContain('stream="live"');
    expect(text).not.toContain('secret');
    expect(text.match(/^# TYPE sluice_stream_alive gauge$/gm)).toHaveLength(1);
    // A family's lines are together: no other metric between its first and last line.
    const names = text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(/[{ ]/)[0]);
    const runs = names.filter((n, i) => n !== names[i - 1]);
    expect(new Set(runs).size).toBe(runs.length);
  });

  it('label values escape backslash, double quote and newline', () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    expect(escapeLabel('plain/name')).toBe('plain/name');
    const text = metricsText({ system: undefined, view: { streams: { 'a"b': {}, 'камера\\1': {} } } });
    expect(text).toContain('sluice_stream_alive{stream="a\\"b"} 0\n');
    expect(text).toContain('sluice_stream_alive{stream="камера\\\\1"} 0\n');
  });

  it('metrics_token is a config directive that survives the text config', () => {
    const config = parseConfigText('metrics_token s3cr3t-Token;\n').config;
    expect(config.metrics_token).toBe('s3cr3t-Token');
    expect(parseConfigText(serializeConfig(config)).config).toEqual(config);
  });
});
