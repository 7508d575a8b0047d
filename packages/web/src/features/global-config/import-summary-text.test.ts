import { describe, expect, it } from 'vitest';
import { importSummaryLines } from './import-summary-text.js';

const none = { added: [], removed: [], changed: [] };

describe('importSummaryLines: the confirmation of Upload config', () => {
  it('says per section how many items are added, removed and changed, and which', () => {
    const lines = importSummaryLines({
      sections: {
        streams: { added: ['a', 'b'], removed: ['c'], changed: ['d', 'e', 'f'] },
        lives: { ...none, removed: ['pub'] },
      },
      settings: { ...none, changed: ['rtmp'] },
    });
    expect(lines).toEqual([
      'Streams: 2 added (a, b), 1 removed (c), 3 changed (d, e, f)',
      'Locations: 1 removed (pub)',
      'Settings: 1 changed (rtmp)',
    ]);
  });

  it('lists the first names of a large change and counts the rest', () => {
    const added = Array.from({ length: 11 }, (_, i) => `s${i}`);
    expect(importSummaryLines({ sections: { streams: { ...none, added } }, settings: none })).toEqual([
      'Streams: 11 added (s0, s1, s2, s3, s4, s5, s6, s7 and 3 more)',
    ]);
  });

  it('has no line when nothing changes', () => {
    expect(importSummaryLines({ sections: {}, settings: none })).toEqual([]);
  });
});
