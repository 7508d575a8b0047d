import { describe, expect, it } from 'vitest';
import { locationNameProblem, NAME_USED, streamNameProblem, stripWhitespace } from './item-names.js';

describe('item names', () => {
  it('strips whitespace as typed', () => {
    expect(stripWhitespace(' live \t cams ')).toBe('livecams');
  });

  it('refuses a location name used by a location or a VOD; empty only disables create', () => {
    const taken = { lives: { live: {} }, vods: { movies: {} } };
    expect(locationNameProblem('live', taken)).toBe(NAME_USED);
    expect(locationNameProblem('movies', taken)).toBe(NAME_USED);
    expect(locationNameProblem('', taken)).toBeUndefined();
    expect(locationNameProblem('studio', taken)).toBeUndefined();
    expect(locationNameProblem('studio', {})).toBeUndefined();
    expect(locationNameProblem('a/../b', taken)).toBe('must not contain . or .. segments');
  });

  it('wants a stream name, unique among streams and fit for a URL', () => {
    expect(streamNameProblem('', {})).toBe('Name is required');
    expect(streamNameProblem('cam', { cam: {} })).toBe(NAME_USED);
    expect(streamNameProblem('cam', { other: {} })).toBeUndefined();
    expect(streamNameProblem('a#b', undefined)).toBe('may hold only letters, digits and _ . ~ @ : + - /');
    // A key inherited by every object is no stream.
    expect(streamNameProblem('constructor', {})).toBeUndefined();
  });
});
