import { describe, expect, it } from 'vitest';
import type { Config } from '@sluice/api';
import { ingestStreams, mirrorSources } from './cluster-servers.js';
import { LocalServer } from './local-server.js';
import { PeerDirectory } from './peer-directory.js';

describe('cluster_servers forms answered from config and view', () => {
  it('?sources=true: one source per mirror url, with its stream count, only and except', () => {
    const config: Config = {
      sources: {
        '0': {
          urls: ['http://origin.example:8080/live', 'origin-2', 'ftp://nope'],
          only: ['a'],
          except: ['b'],
        },
        '1': { urls: ['https://secure.example'] },
      },
    };
    const view = { sources: { '0': { streams: { a: {}, c: {} } } } };
    expect(mirrorSources(config, view)).toEqual({
      sources: [
        {
          proto: 'http',
          name: 'origin.example',
          port: 8080,
          prefix: 'live',
          stream_count: 2,
          only: ['a'],
          except: ['b'],
        },
        {
          proto: 'http',
          name: 'origin-2',
          port: 80,
          prefix: '',
          stream_count: 2,
          only: ['a'],
          except: ['b'],
        },
        {
          proto: 'https',
          name: 'secure.example',
          port: 443,
          prefix: '',
          stream_count: 0,
          only: [],
          except: [],
        },
      ],
    });
  });

  it('?ingest=true: streams marked for cluster ingest and where each runs', () => {
    const config: Config = { hostname: 'here', streams: { cam: {}, plain: {}, idle: {} } };
    const view = { streams: { cam: { stats: { alive: true } }, plain: { stats: { alive: true } } } };
    const local = new LocalServer({
      config: () => config,
      snapshot: () => view,
      ingestHere: (name) => name === 'cam' || name === 'idle',
    });
    const directory = new PeerDirectory(local);
    expect(ingestStreams(directory)).toEqual({
      streams: [
        { name: 'cam', running_at: ['here'] },
        { name: 'idle', running_at: [] },
      ],
    });
    // The list's revision follows alive flags (a peer asking with the old one gets the new list).
    const now = Date.now();
    const before = local.streamList(now).rev;
    view.streams.plain.stats.alive = false;
    expect(local.streamList(now + 500).rev).toBe(before); // reused within a second
    expect(local.streamList(now + 1000).rev).not.toBe(before);
    // A stream marked here that nobody captures is a row with no server.
    const marked: Config = { ...config, streams: { ...config.streams, spare: { cluster_ingest: true } } };
    expect(ingestStreams(directory, marked).streams).toContainEqual({ name: 'spare', running_at: [] });
    directory.close();
  });
});
