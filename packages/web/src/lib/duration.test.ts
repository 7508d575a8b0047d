import { expect, it } from 'vitest';
import { formatLifetime } from './duration.js';

it('formats seconds as days hh:mm:ss', () => {
  expect(formatLifetime(0)).toBe('00:00:00');
  expect(formatLifetime(3661)).toBe('01:01:01');
  expect(formatLifetime(2 * 86400 + 5 * 3600 + 7)).toBe('2d 05:00:07');
  expect(formatLifetime(-5)).toBe('00:00:00');
});
