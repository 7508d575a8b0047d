import { parsePulseQuery } from '@sluice/api';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BOARD,
  canonicalQuery,
  customGraph,
  kindOf,
  pulseRangePath,
  scaleValue,
  seriesLabel,
  splitTitle,
} from './board.js';
import { canShow, queryError, withMetric } from './query-field.js';
import {
  type QuerySeries,
  extendWithLive,
  latestValue,
  mergeLive,
  splitByTags,
  toPlotData,
} from './series-data.js';

describe('pulse board', () => {
  it('has the spec graphs, the Erlang ones under their Node.js names, each query valid', () => {
    expect(DEFAULT_BOARD.map((g) => g.title)).toEqual([
      'Traffic',
      'Memory usage',
      'CPU usage',
      'Event loop utilization',
      'Active tasks (handles and requests)',
      'HDD I/O usage',
      'Disk space usage',
    ]);
    for (const g of DEFAULT_BOARD) for (const q of g.queries) expect(parsePulseQuery(q), q).toBeDefined();
    for (const g of DEFAULT_BOARD) expect(new Set(g.queries.map((q) => kindOf([q]))).size, g.id).toBe(1);
  });

  it('asks the range call with the query encoded', () => {
    expect(pulseRangePath('max:1m-savg:disk_io_usage{disk=sda}', 1000, 2000)).toBe(
      '/pulse?query=max%3A1m-savg%3Adisk_io_usage%7Bdisk%3Dsda%7D&from=1000&to=2000',
    );
  });

  it('matches the echoed query whatever the spelling', () => {
    expect(canonicalQuery('60s-savg:cpu_usage')).toBe(canonicalQuery(' 1m-savg:cpu_usage'));
  });

  it('draws traffic in bit/s, memory in MB, the event loop in percent', () => {
    expect(scaleValue('traffic', 2)).toBe(2000);
    expect(scaleValue('bytes', 3 * 1048576)).toBe(3);
    expect(scaleValue('ratio', 0.25)).toBe(25);
    expect(scaleValue('percent', 42)).toBe(42);
  });

  it('names lines by metric, and by tags when a graph is split', () => {
    expect(seriesLabel('cpu_usage', {}, false)).toBe('machine');
    expect(seriesLabel('disk_io_usage', { disk: 'sda' }, true)).toBe('sda');
    expect(seriesLabel('max:1m-savg:cpu_usage', {}, false)).toBe('machine');
    expect(seriesLabel('media_input', { name: 'cam' }, false)).toBe('media_input cam');
  });

  it('titles a partition with its path and usage, a disk with its name', () => {
    const partitions = DEFAULT_BOARD.find((g) => g.id === 'partitions');
    const disks = DEFAULT_BOARD.find((g) => g.id === 'disk-io');
    if (!partitions || !disks) throw new Error('board lacks a graph');
    expect(splitTitle(partitions, { path: '/var/lib' }, 41.6)).toBe('Disk space usage: /var/lib (42 %)');
    expect(splitTitle(disks, { disk: 'sda' }, 3)).toBe('HDD I/O usage: sda');
    expect(customGraph('cpu_usage').queries).toEqual(['cpu_usage']);
  });
});

describe('pulse series', () => {
  it('appends the newer points of each message and keeps the last minute', () => {
    let s = mergeLive(
      [],
      'cpu_usage',
      [
        {
          tags: {},
          points: [
            [1000, 1],
            [2000, 2],
          ],
        },
      ],
      60_000,
    );
    s = mergeLive(
      s,
      'cpu_usage',
      [
        {
          tags: {},
          points: [
            [2000, 2],
            [3000, 3],
          ],
        },
      ],
      60_000,
    );
    expect(s[0]?.points).toEqual([
      [1000, 1],
      [2000, 2],
      [3000, 3],
    ]);
    s = mergeLive(s, 'cpu_usage', [{ tags: {}, points: [[62_000, 4]] }], 60_000);
    expect(s[0]?.points).toEqual([
      [3000, 3],
      [62_000, 4],
    ]);
    s = mergeLive(s, 'server_cpu_usage', [{ tags: {}, points: [[62_000, 1]] }], 60_000);
    expect(s.map((x) => x.query)).toEqual(['cpu_usage', 'server_cpu_usage']);
  });

  it('aligns series on shared times with gaps, counts drawn points, finds the newest value', () => {
    const plot = toPlotData(
      [
        {
          query: 'total_input',
          tags: {},
          points: [
            [1000, 1],
            [2000, null],
          ],
        },
        { query: 'total_output', tags: {}, points: [[2000, 5]] },
      ],
      'traffic',
      false,
    );
    expect(plot.labels).toEqual(['input', 'output']);
    expect(plot.data).toEqual([
      [1, 2],
      [1000, null],
      [null, 5000],
    ]);
    expect(plot.points).toBe(2);
    expect(
      latestValue([
        {
          query: 'x',
          tags: {},
          points: [
            [1, 7],
            [2, null],
          ],
        },
      ]),
    ).toBe(7);
  });

  it('grows the last-hours panel with the live seconds past its last stored minute', () => {
    const stored = [{ query: 'cpu_usage', tags: {}, points: [[60_000, 10]] as [number, number][] }];
    const live: QuerySeries[] = [
      {
        query: 'cpu_usage',
        tags: {},
        points: [
          [119_000, 99],
          [120_000, 20],
          [121_000, 30],
          [122_000, null],
        ] as [number, number | null][],
      },
      { query: 'cpu_usage', tags: { disk: 'sda' }, points: [[120_000, 5]] as [number, number][] },
    ];
    const extended = extendWithLive(stored, live, 60_000);
    // 119 s falls in the stored minute (60..120 s): left to the store's own mean.
    expect(extended[0]?.points).toEqual([
      [60_000, 10],
      [120_000, 25],
    ]);
    expect(extended[1]).toEqual({ query: 'cpu_usage', tags: { disk: 'sda' }, points: [[120_000, 5]] });
    expect(extendWithLive(stored, undefined, 60_000)).toBe(stored);
  });

  it('splits per disk in a stable order', () => {
    const groups = splitByTags([
      { query: 'disk_io_usage', tags: { disk: 'sdb' }, points: [] },
      { query: 'disk_io_usage', tags: { disk: 'sda' }, points: [] },
      { query: 'disk_io_usage', tags: { disk: 'sdb' }, points: [[1, 1]] },
    ]);
    expect(groups.map((g) => [g.series[0]?.tags.disk, g.series.length])).toEqual([
      ['sda', 1],
      ['sdb', 2],
    ]);
  });
});

describe('custom query field', () => {
  it('disables show when empty or invalid and says "invalid format"', () => {
    expect(canShow('')).toBe(false);
    expect(canShow('  ')).toBe(false);
    expect(canShow('nonsense')).toBe(false);
    expect(canShow('max:1m-savg:cpu_usage')).toBe(true);
    expect(queryError('')).toBeUndefined();
    expect(queryError('nonsense')).toBe('invalid format');
    expect(queryError('cpu_usage')).toBeUndefined();
  });

  it('puts a metric picked from the list into the query', () => {
    expect(withMetric('', 'cpu_usage')).toBe('cpu_usage');
    expect(withMetric('max:1m-savg:cpu_usage{a=b}', 'total_memusage')).toBe(
      'max:1m-savg:total_memusage{a=b}',
    );
    expect(withMetric('max:1m-savg:cpu_usage', 'total_input')).toBe('max:total_input');
    expect(withMetric('garbage', 'cpu_usage')).toBe('cpu_usage');
  });
});
