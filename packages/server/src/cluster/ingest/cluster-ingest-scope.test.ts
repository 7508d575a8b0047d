import type { Config } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import { LiveView } from '../../live/live-view.js';
import { createLogger } from '../../support/log.js';
import { ClusterIngest } from './cluster-ingest.js';

const config = (streams: Record<string, boolean>): Config =>
  ({
    streams: Object.fromEntries(
      Object.entries(streams).map(([name, on]) => [name, { name, urls: [], cluster_ingest: on }]),
    ),
  }) as unknown as Config;

describe('cluster ingest after an edit of some streams', () => {
  // An edit names the streams it changed: only those are looked at (issue 20, 20,000 streams).
  it('lists a stream that joins or leaves cluster ingest by an edit naming it', () => {
    const ingest = new ClusterIngest({
      engine: () => {
        throw new Error('no round runs in this test');
      },
      view: new LiveView(),
      log: createLogger('error'),
      machineHostname: 'host',
    });
    const names = () => ingest.streams().map((s) => s.name);
    ingest.apply(config({ a: true, b: false, c: false }));
    ingest.close();
    expect(names()).toEqual(['a']);
    ingest.apply(config({ a: true, b: true, c: false }), ['b']);
    ingest.close();
    expect(names()).toEqual(['a', 'b']);
    ingest.apply(config({ a: false, b: true, c: false }), ['a', 'c']);
    ingest.close();
    expect(names()).toEqual(['b']);
  });
});
