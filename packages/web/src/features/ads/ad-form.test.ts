import { describe, expect, it } from 'vitest';
import { adFileName, isAdVideo, maskSlotTime, parentOf, problemsByField } from './ad-form.js';

describe('ad injector form helpers', () => {
  it('masks a slot start as HH:mm:ss while it is typed', () => {
    expect(maskSlotTime('08')).toBe('08');
    expect(maskSlotTime('083')).toBe('08:3');
    expect(maskSlotTime('0830')).toBe('08:30');
    expect(maskSlotTime('08:30:1')).toBe('08:30:1');
    expect(maskSlotTime('08a30b15c99')).toBe('08:30:15');
  });

  it('lets only the spec video types be checked', () => {
    for (const name of ['a.mp4', 'B.MOV', 'c.f4v', 'd.m4v', 'e.mp4a', 'f.3gp', 'g.3g2'])
      expect(isAdVideo(name)).toBe(true);
    for (const name of ['a.mkv', 'b.flv', 'c.txt', 'mp4']) expect(isAdVideo(name)).toBe(false);
  });

  it('names files prefix/path and walks up', () => {
    expect(adFileName('ads', '', 'a.mp4')).toBe('ads/a.mp4');
    expect(adFileName('ads', 'x/y', 'a.mp4')).toBe('ads/x/y/a.mp4');
    expect(parentOf('x/y')).toBe('x');
    expect(parentOf('x')).toBe('');
  });

  it('keys the messages by field', () => {
    const map = problemsByField([{ name: '', slots: [{ from: '1', duration: 0 }], files: [] }]);
    expect(map.get('s.0.name')).toBe('Ad schedule name is required and should have 1 character at least.');
    expect(map.get('s.0.slots.0.from')).toBe('Slot format is HH:mm:ss');
    expect(map.get('s.0.slots.0.duration')).toBe('Should be greater, than 0');
  });
});
