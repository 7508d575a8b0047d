import { expect, it } from 'vitest';
import { digitsOnly, parseInteger } from './numbers.js';

it('keeps only digits of typed text', () => {
  expect(digitsOnly('1a2 3-')).toBe('123');
  expect(digitsOnly('abc')).toBe('');
});

it('parses integers and turns empty or non-digit text into null', () => {
  expect(parseInteger(' 1935 ')).toBe(1935);
  expect(parseInteger('')).toBeNull();
  expect(parseInteger('19a')).toBeNull();
  expect(parseInteger('-1')).toBeNull();
  expect(parseInteger('99999999999999999999')).toBeNull();
});
