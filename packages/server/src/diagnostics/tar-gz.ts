import { gzipSync } from 'node:zlib';

export interface BundleFile {
  name: string;
  data: Buffer;
}

const BLOCK_BYTES = 512;

/** A ustar header field: the text, NUL-padded to its width. */
function put(header: Buffer, offset: number, width: number, text: string): void {
  header.write(text.slice(0, width), offset, width, 'utf8');
}

/** Numeric fields are octal, NUL-terminated, zero-padded to their width. */
const octal = (value: number, width: number): string => value.toString(8).padStart(width - 1, '0');

function headerOf(file: BundleFile, mtimeSeconds: number): Buffer {
  const header = Buffer.alloc(BLOCK_BYTES);
  put(header, 0, 100, file.name);
  put(header, 100, 8, octal(0o644, 8));
  put(header, 108, 8, octal(0, 8));
  put(header, 116, 8, octal(0, 8));
  put(header, 124, 12, octal(file.data.length, 12));
  put(header, 136, 12, octal(mtimeSeconds, 12));
  // The checksum is computed with its own field read as spaces.
  header.fill(' ', 148, 156);
  header.write('0', 156);
  put(header, 257, 6, 'ustar');
  put(header, 263, 2, '00');
  put(header, 265, 32, 'sluice');
  put(header, 297, 32, 'sluice');
  let sum = 0;
  for (const byte of header) sum += byte;
  put(header, 148, 7, octal(sum, 7));
  header[154] = 0;
  header[155] = 0x20;
  return header;
}

/**
 * A .tar.gz of a few small files, with Node's zlib alone: the bundle support unpacks with `tar xzf`.
 * Names are short and ASCII (ours), so plain ustar headers are enough.
 */
export function tarGz(files: readonly BundleFile[], mtimeMs = Date.now()): Buffer {
  const parts: Buffer[] = [];
  const mtime = Math.floor(mtimeMs / 1000);
  for (const file of files) {
    parts.push(headerOf(file, mtime), file.data);
    const pad = (BLOCK_BYTES - (file.data.length % BLOCK_BYTES)) % BLOCK_BYTES;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  // Two empty blocks end the archive.
  parts.push(Buffer.alloc(2 * BLOCK_BYTES));
  return gzipSync(Buffer.concat(parts));
}
