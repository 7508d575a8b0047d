import { describe, expect, it } from 'vitest';
import { notAppliedNote, reviewField } from './not-applied.js';

describe('not-applied fields', () => {
  it("names a form's config path as the field review does", () => {
    expect(reviewField(['streams', 'cam', 'dvr', 'dvr_replicate'])).toBe('streams.*.dvr.dvr_replicate');
    expect(reviewField(['lives', 'live/sport', 'cache', 'path'])).toBe('lives.*.cache.path');
    expect(reviewField(['streams', 'a', 'urls', '0', 'buffer'])).toBe('streams.*.urls[].buffer');
    expect(reviewField(['streams', 'a', 'transcoder', 'video', '1', 'alogo', 'x'])).toBe(
      'streams.*.transcoder.video.*.alogo.x',
    );
    expect(reviewField(['dvrs', 'main', 'no_index'])).toBe('dvrs.*.no_index');
    expect(reviewField(['mysql'])).toBe('mysql');
  });

  it('has a note for a field kept but not applied, and none for an applied one', () => {
    expect(notAppliedNote(reviewField(['vods', 'vod', 'auto_mbr']))).toMatch(/not applied/);
    expect(notAppliedNote(reviewField(['streams', 'cam', 'dvr', 'root']))).toBeUndefined();
  });
});
