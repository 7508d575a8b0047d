import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PULSE_GROUPS,
  PULSE_METRICS,
  formatPulseQuery,
  parsePulseQuery,
  pulseAggregatorFor,
  pulseTagsMatch,
  type PulseQuery,
} from './query.js';

describe('pulse query grammar', () => {
  it('reads the three-part form with tags', () => {
    expect(parsePulseQuery('max:1m-savg:disk_io_usage{disk=sda}')).toEqual({
      group: 'max',
      period_s: 60,
      aggregator: 'savg',
      metric: 'disk_io_usage',
      tags: { disk: 'sda' },
    });
    expect(parsePulseQuery('sum:10s-tavg8:media_input{name=cam1,host=a}')).toEqual({
      group: 'sum',
      period_s: 10,
      aggregator: 'tavg8',
      metric: 'media_input',
      tags: { name: 'cam1', host: 'a' },
    });
  });

  it('reads the shorter forms: metric alone, group:metric, period-aggregator:metric', () => {
    expect(parsePulseQuery('cpu_usage')).toEqual({ metric: 'cpu_usage', tags: {} });
    expect(parsePulseQuery('  total_input  ')).toEqual({ metric: 'total_input', tags: {} });
    expect(parsePulseQuery('min:total_memusage')).toEqual({
      group: 'min',
      metric: 'total_memusage',
      tags: {},
    });
    expect(parsePulseQuery('1h-savg:cpu_usage')).toEqual({
      period_s: 3600,
      aggregator: 'savg',
      metric: 'cpu_usage',
      tags: {},
    });
    expect(parsePulseQuery('3600s-savg:cpu_usage')?.period_s).toBe(3600);
    expect(parsePulseQuery('cpu_usage{}')).toEqual({ metric: 'cpu_usage', tags: {} });
  });

  it('refuses what the spec refuses', () => {
    for (const bad of [
      '',
      '   ',
      'nonsense',
      'avg:cpu_usage', // group is max, min or sum
      'max:1m-savg:cpu_usage:x', // at most three parts
      'max::cpu_usage', // empty part
      '0s-savg:cpu_usage', // period from 1s
      '2h-savg:cpu_usage', // … to 1h
      '3601s-savg:cpu_usage',
      '1m-tavg8:cpu_usage', // tavg8 is for traffic
      '1m-savg:total_input', // savg is for the others
      '1m:cpu_usage', // period without aggregator
      '1x-savg:cpu_usage',
      'cpu_usage{disk}',
      'cpu_usage{disk=}',
      'cpu_usage{=sda}',
      'cpu_usage{a=b,a=c}',
      'cpu_usage{a=b',
      'cpu_usage{a=b}x',
      'cpu_usage{a=b{c}}',
      'cpu_usage{a=b;c}',
      'cpu_usage{a=b\tc}',
      'max;x:cpu_usage',
      'max:1m-savg:cpu\nusage',
      'cpu_usage' + '{a=b}'.padEnd(2000, 'x'),
    ]) {
      expect(parsePulseQuery(bad), bad).toBeUndefined();
    }
  });

  it('picks tavg8 for traffic metrics and savg for the rest', () => {
    expect(pulseAggregatorFor('total_output')).toBe('tavg8');
    expect(pulseAggregatorFor('thumbnailer_in')).toBe('tavg8');
    expect(pulseAggregatorFor('event_loop_utilization')).toBe('savg');
  });

  it('writes periods in their largest unit', () => {
    expect(formatPulseQuery({ period_s: 60, metric: 'cpu_usage', tags: {} })).toBe('1m-savg:cpu_usage');
    expect(
      formatPulseQuery({ group: 'sum', period_s: 90, metric: 'media_output', tags: { name: 'a' } }),
    ).toBe('sum:90s-tavg8:media_output{name=a}');
  });

  it('keeps a tag named __proto__ as a tag and matches tag filters', () => {
    const q = parsePulseQuery('cpu_usage{__proto__=x}');
    expect(q && Object.keys(q.tags)).toEqual(['__proto__']);
    expect(pulseTagsMatch({ disk: 'sda' }, { disk: 'sda', host: 'h' })).toBe(true);
    expect(pulseTagsMatch({ disk: 'sda' }, { disk: 'sdb' })).toBe(false);
    expect(pulseTagsMatch({ constructor: 'x' }, {})).toBe(false);
  });
});

const part = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/[;{}\n\r\t,=:]/.test(s));
const queryArb: fc.Arbitrary<PulseQuery> = fc
  .record({
    group: fc.option(fc.constantFrom(...PULSE_GROUPS), { nil: undefined }),
    period_s: fc.option(fc.integer({ min: 1, max: 3600 }), { nil: undefined }),
    metric: fc.constantFrom(...PULSE_METRICS),
    tags: fc.uniqueArray(fc.tuple(part, part), { maxLength: 4, selector: ([k]) => k }),
  })
  .map(({ group, period_s, metric, tags }) => {
    const q: PulseQuery = { metric, tags: Object.fromEntries(tags) };
    if (group) q.group = group;
    if (period_s !== undefined) {
      q.period_s = period_s;
      q.aggregator = pulseAggregatorFor(metric);
    }
    return q;
  });

describe('pulse query grammar, property', () => {
  it('gives back every query it formats', () => {
    fc.assert(
      fc.property(queryArb, (q) => {
        expect(parsePulseQuery(formatPulseQuery(q))).toEqual(q);
      }),
      { numRuns: 10_000 },
    );
  });

  it('never throws on arbitrary text, and what it accepts formats back to the same query', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc
        .array(
          fc.constantFrom(
            'max',
            'sum',
            ':',
            '-',
            '1m',
            '60s',
            'savg',
            'tavg8',
            'cpu_usage',
            'media_input',
            '{',
            '}',
            'a=b',
            ',',
            '=',
            ' ',
            '\n',
          ),
          { maxLength: 12 },
        )
        .map((xs) => xs.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        const q = parsePulseQuery(t);
        if (q) expect(parsePulseQuery(formatPulseQuery(q))).toEqual(q);
      }),
      { numRuns: 10_000 },
    );
  });
});
