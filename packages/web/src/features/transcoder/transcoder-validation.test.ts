import { describe, expect, it } from 'vitest';
import {
  ASPECT_REQUIRED,
  CROP_REQUIRED,
  parseBitrateK,
  parseDimension,
  parseGroup,
  parsePositive,
} from './transcoder-validation.js';

describe('bitrate', () => {
  it('is typed in K and stored in bits per second', () => {
    expect(parseBitrateK('700')).toEqual({ value: 700_000 });
    expect(parseBitrateK('1.5')).toEqual({ value: 1500 });
  });

  it('is required and above zero', () => {
    expect(parseBitrateK('')).toEqual({ error: 'Bitrate is required.' });
    expect(parseBitrateK('0')).toEqual({ error: 'Should be greater than zero.' });
    expect(parseBitrateK('-5')).toEqual({ error: 'Should be greater than zero.' });
  });
});

describe('size', () => {
  it('empty, -1 and 0 are auto', () => {
    for (const text of ['', '-1', '0', 'auto'])
      expect(parseDimension(text, 'Width')).toEqual({ value: null });
  });

  it('an odd or negative dimension has its message', () => {
    expect(parseDimension('641', 'Width')).toEqual({ error: 'Width should be multiple of 2.' });
    expect(parseDimension('-2', 'Height')).toEqual({ error: 'Height should be -1 or greater than zero.' });
    expect(parseDimension('360', 'Height')).toEqual({ value: 360 });
  });
});

describe('positive numbers', () => {
  it('threads and frames in GOP are whole numbers above zero when set', () => {
    expect(parsePositive('')).toEqual({ value: null });
    expect(parsePositive('4')).toEqual({ value: 4 });
    expect(parsePositive('0')).toEqual({ error: 'Should be greater than zero.' });
    expect(parsePositive('2.5')).toEqual({ error: 'Should be greater than zero.' });
  });
});

describe('crop and aspect', () => {
  it('once any crop edge is set all are required', () => {
    expect(parseGroup({ left: '10', top: '', width: '', height: '' }, CROP_REQUIRED).errors).toEqual({
      top: 'Required, if crop set.',
      width: 'Required, if crop set.',
      height: 'Required, if crop set.',
    });
    expect(parseGroup({ left: '0', top: '1', width: '2', height: '3' }, CROP_REQUIRED).errors).toEqual({
      left: 'Should be greater than zero.',
    });
    expect(parseGroup({ left: '1', top: '2', width: '640', height: '360' }, CROP_REQUIRED).value).toEqual({
      left: 1,
      top: 2,
      width: 640,
      height: 360,
    });
  });

  it('aspect needs both; both empty removes it', () => {
    expect(parseGroup({ x: '16', y: '' }, ASPECT_REQUIRED).errors).toEqual({ y: 'Required, if aspect set.' });
    expect(parseGroup({ x: '', y: '' }, ASPECT_REQUIRED)).toEqual({ value: null, errors: {} });
  });
});
