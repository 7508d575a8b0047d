import type { ServerStats } from '@sluice/api';
import { expect, it } from 'vitest';
import { headerHeightPx } from './header-height.js';
import { errorNotices, isLongNotice } from './server-notices.js';

it('grows the header 50 px per error notice and for a new version', () => {
  expect(headerHeightPx(0, false)).toBe(100);
  expect(headerHeightPx(2, false)).toBe(200);
  expect(headerHeightPx(1, true)).toBe(200);
});

it('takes the error_* strings of the server status', () => {
  const stats = {
    status: { running: 'yes', error_disk: 'disk full', error_empty: '' },
  } as unknown as ServerStats;
  expect(errorNotices(stats)).toEqual([{ key: 'error_disk', text: 'disk full' }]);
  expect(errorNotices(undefined)).toEqual([]);
});

it('collapses long or multiline notices', () => {
  expect(isLongNotice('short')).toBe(false);
  expect(isLongNotice('a\nb')).toBe(true);
  expect(isLongNotice('x'.repeat(121))).toBe(true);
});
