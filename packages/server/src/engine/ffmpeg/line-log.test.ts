import { describe, expect, it } from 'vitest';
import { LineLog } from './line-log.js';

describe('LineLog', () => {
  it('joins a line split across chunks and ends lines on \\r or \\n', () => {
    const log = new LineLog(10);
    log.write('frame=  1 fps');
    log.write('=0\rframe=  2\r\n[error] boom\n[inf');
    expect(log.all).toEqual(['frame=  1 fps=0', 'frame=  2', '[error] boom']);
    log.flush();
    expect(log.last).toBe('[inf');
  });

  it('keeps only the newest lines and cuts a line that never ends', () => {
    const log = new LineLog(2, undefined, 8);
    log.write('a\nb\nc\n');
    expect(log.all).toEqual(['b', 'c']);
    log.write('0123456789');
    expect(log.last).toBe('01234567');
  });
});
