import { describe, expect, it } from 'vitest';
import { clientsPerMinute, parseHistoryV2 } from './history-query.js';

describe('history vsn=2 query', () => {
  const now = 48 * 3600_000;

  it('reads every parameter, mapping proto and bytes to fields', () => {
    expect(
      parseHistoryV2(
        {
          vsn: '2',
          name: 'a',
          from: '1000',
          to: '2000',
          pulse: 'true',
          sessions: 'true',
          sort: 'proto',
          sort_dir: 'desc',
          group: 'type',
        },
        now,
      ),
    ).toEqual({
      name: 'a',
      prefix: undefined,
      from: 1000,
      to: 2000,
      pulse: true,
      sessions: true,
      sort: 'type',
      sortDir: 'desc',
      group: 'type',
    });
    expect(parseHistoryV2({ vsn: '2', sort: 'bytes' }, now)).toMatchObject({
      sort: 'bytes_sent',
      from: now - 24 * 3600_000,
      to: now,
    });
  });

  it('names the parameter that is wrong', () => {
    expect(parseHistoryV2({ vsn: '3' }, now)).toMatch(/^vsn:/);
    expect(parseHistoryV2({ vsn: '2', from: 'yesterday' }, now)).toMatch(/^from:/);
    expect(parseHistoryV2({ vsn: '2', to: '-1' }, now)).toMatch(/^to:/);
    expect(parseHistoryV2({ vsn: '2', from: '5', to: '4' }, now)).toMatch(/^from:/);
    expect(parseHistoryV2({ vsn: '2', pulse: 'yes' }, now)).toMatch(/^pulse:/);
    expect(parseHistoryV2({ vsn: '2', sessions: '1' }, now)).toMatch(/^sessions:/);
    expect(parseHistoryV2({ vsn: '2', sort: 'name; DROP TABLE sessions' }, now)).toMatch(/^sort:/);
    expect(parseHistoryV2({ vsn: '2', sort_dir: 'up' }, now)).toMatch(/^sort_dir:/);
    expect(parseHistoryV2({ vsn: '2', group: 'country' }, now)).toMatch(/^group:/);
    expect(parseHistoryV2({ vsn: '2', name: ['a', 'b'] }, now)).toMatch(/^name:/);
    expect(parseHistoryV2({ vsn: '2', name: 'a', prefix: 'live' }, now)).toMatch(/^prefix:/);
  });

  it('counts a session in every minute it was open', () => {
    const m = 60_000;
    const points = clientsPerMinute(
      [
        [m * 1 + 5, m * 3 + 1],
        [m * 2, m * 2 + 10],
        [0, m * 10],
      ],
      m,
      m * 4,
    );
    expect(points).toEqual([
      [m, 2],
      [2 * m, 3],
      [3 * m, 2],
      [4 * m, 1],
    ]);
  });
});
