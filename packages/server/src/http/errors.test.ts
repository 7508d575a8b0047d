import { describe, expect, it } from 'vitest';
import { diskFailure, formatBytes } from './errors.js';

const fsError = (code: string, path = '/etc/sluice/.sluice.conf.1a2b.tmp') =>
  Object.assign(new Error(`${code}: failed, write '${path}'`), { code, path });

describe('diskFailure', () => {
  // A real full disk is made in test/security-http-disk.test.ts where mount works (root); this
  // covers the mapping wherever the tests run.
  it('says the disk is full (507) and that the config was not saved', () => {
    expect(diskFailure(fsError('ENOSPC'), { url: '/flussonic/api/modify_config' })).toEqual({
      status: 507,
      message: 'the disk is full: the config was not saved',
    });
  });

  it('names the read-only or forbidden folder', () => {
    expect(diskFailure(fsError('EROFS'), { url: '/flussonic/api/save_raw_config' })?.message).toBe(
      'the folder (/etc/sluice) is on a read-only disk: the config was not saved',
    );
    expect(diskFailure(fsError('EACCES'), { url: '/flussonic/api/logo/x' })?.message).toBe(
      'the server may not write to the folder (/etc/sluice): nothing was saved',
    );
  });

  it('leaves other errors to the generic answer', () => {
    expect(diskFailure(new Error('boom'), { url: '/flussonic/api/modify_config' })).toBeUndefined();
    expect(diskFailure(fsError('ENOENT'), { url: '/flussonic/api/modify_config' })).toBeUndefined();
  });
});

describe('formatBytes', () => {
  it('reads as an operator writes a limit', () => {
    expect(formatBytes(8 * 1024 * 1024)).toBe('8 MiB');
    expect(formatBytes(256 * 1024)).toBe('256 KiB');
    expect(formatBytes(1000)).toBe('1000 bytes');
  });
});
