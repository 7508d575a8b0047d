import { describe, expect, it } from 'vitest';
import {
  parsePids,
  prepushMode,
  prepushValue,
  protocolUrlState,
  segmentDurationMs,
  switchOf,
  switchValue,
  trafficAxisLabel,
} from './stream-options.js';

describe('protocol switches', () => {
  it('maps the three states to false, unset and true', () => {
    expect(switchOf(false)).toBe('except');
    expect(switchOf(undefined)).toBe('neutral');
    expect(switchOf(true)).toBe('only');
    expect(switchValue('except')).toBe(false);
    expect(switchValue('neutral')).toBeNull();
    expect(switchValue('only')).toBe(true);
  });

  it('disables an explicit off, and an unset one while another is only; hides an explicit off', () => {
    expect(protocolUrlState({ hls: false }, 'hls')).toEqual({ disabled: true, hidden: true });
    expect(protocolUrlState({ dash: true }, 'hls')).toEqual({ disabled: true, hidden: false });
    expect(protocolUrlState({ dash: true, hls: true }, 'hls')).toEqual({ disabled: false, hidden: false });
    expect(protocolUrlState(undefined, 'hls')).toEqual({ disabled: false, hidden: false });
  });
});

describe('prepush', () => {
  it('is off for false, on when unset, seconds for a number; 3 on selection', () => {
    expect(prepushMode(false)).toBe('off');
    expect(prepushMode(undefined)).toBe('on');
    expect(prepushMode(null)).toBe('on');
    expect(prepushMode(7)).toBe('seconds');
    expect(prepushValue('off')).toBe(false);
    expect(prepushValue('on')).toBeNull();
    expect(prepushValue('seconds')).toBe(3);
  });
});

describe('pids', () => {
  it('keeps integers above 0 and below 8192, and a trailing comma', () => {
    expect(parsePids('100,0,8192,8191,x,256')).toBe('100,8191,256');
    expect(parsePids('100,')).toBe('100,');
    expect(parsePids('')).toBeNull();
    expect(parsePids('0')).toBeNull();
  });
});

describe('segment duration and traffic axis', () => {
  it('stores seconds as milliseconds', () => {
    expect(segmentDurationMs(2.5)).toBe(2500);
  });

  it('switches units at 700, 700k and 700M', () => {
    expect(trafficAxisLabel(699)).toBe('699');
    expect(trafficAxisLabel(700)).toBe('0.7k');
    expect(trafficAxisLabel(700_000)).toBe('0.7M');
    expect(trafficAxisLabel(700_000_000)).toBe('0.7G');
  });
});
