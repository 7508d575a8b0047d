import type { FileHandle } from 'node:fs/promises';

/**
 * ISO BMFF (ISO/IEC 14496-12 §4.2) box reading for the VOD MP4 reader. Every size is checked
 * against what holds the box: files come from uploads and are read as untrusted.
 */

/** A damaged or unsupported file; the source adds the file's name to the message. */
export class Mp4Error extends Error {}

export interface BoxHeader {
  type: string;
  /** Where the box starts, its content (after size, type and any 64-bit size) starts, and ends. */
  start: number;
  contentStart: number;
  end: number;
}

/**
 * The header of the box at `at` in `bytes`, which must end by `limit`: size 1 is a 64-bit size,
 * size 0 runs to `limit` (§4.2: "box extends to end of file", or of what holds it).
 */
export function boxAt(bytes: Buffer, at: number, limit: number): BoxHeader {
  const where = `at byte ${at} of the movie header`;
  if (at + 8 > limit) throw new Mp4Error(`a box header ${where} is cut short`);
  const size32 = bytes.readUInt32BE(at);
  const type = bytes.toString('latin1', at + 4, at + 8);
  let size = size32;
  let contentStart = at + 8;
  if (size32 === 1) {
    if (at + 16 > limit) throw new Mp4Error(`the '${type}' box ${where} is cut short`);
    size = Number(bytes.readBigUInt64BE(at + 8));
    contentStart = at + 16;
  } else if (size32 === 0) {
    size = limit - at;
  }
  const end = at + size;
  if (size < contentStart - at || end > limit) {
    throw new Mp4Error(`the '${type}' box ${where} has a bad size (${size} bytes)`);
  }
  return { type, start: at, contentStart, end };
}

/** The boxes inside `[from, to)` of `bytes`, in order. */
export function childBoxes(bytes: Buffer, from: number, to: number): BoxHeader[] {
  const out: BoxHeader[] = [];
  for (let at = from; at + 8 <= to;) {
    const b = boxAt(bytes, at, to);
    out.push(b);
    at = b.end;
  }
  return out;
}

/** The first child box of that type, or undefined. */
export function child(bytes: Buffer, parent: BoxHeader, type: string, skip = 0): BoxHeader | undefined {
  return childBoxes(bytes, parent.contentStart + skip, parent.end).find((b) => b.type === type);
}

/** Like `child`, for a box the file cannot do without. */
export function need(bytes: Buffer, parent: BoxHeader, type: string, skip = 0): BoxHeader {
  const found = child(bytes, parent, type, skip);
  if (!found) throw new Mp4Error(`'${parent.type}' has no '${type}' box`);
  return found;
}

/** A box of this many bytes is not a movie header any file needs: refuse rather than allocate it. */
export const MAX_MOOV_BYTES = 256 * 1024 * 1024;
/** Top-level boxes looked at before giving up: real files have a handful. */
const MAX_TOP_LEVEL_BOXES = 10_000;

/**
 * Finds the top-level 'moov' by reading box headers only (16 bytes each, positional reads), so
 * a 'moov' after a multi-GB 'mdat' costs a few reads, then reads the 'moov' in one read.
 */
export async function readMoov(file: FileHandle, sizeBytes: number): Promise<Buffer> {
  const head = Buffer.alloc(16);
  let at = 0;
  for (let count = 0; at + 8 <= sizeBytes; count++) {
    if (count >= MAX_TOP_LEVEL_BOXES) throw new Mp4Error('too many top-level boxes: not an MP4 file');
    const { bytesRead } = await file.read(head, 0, 16, at);
    const type = head.toString('latin1', 4, 8);
    // Box types are four printable characters: anything else is not ISO BMFF (or damaged there).
    if (bytesRead >= 8 && !/^[\x20-\x7e]{4}$/.test(type)) {
      throw new Mp4Error(count === 0 ? 'not an MP4 file' : `no box at byte ${at}: the file is damaged`);
    }
    const size = sizeOf(head, bytesRead, sizeBytes - at, at);
    if (type === 'moov') {
      if (size > MAX_MOOV_BYTES) throw new Mp4Error(`the 'moov' box is too large (${size} bytes)`);
      const moov = Buffer.alloc(size);
      const read = await file.read(moov, 0, size, at);
      if (read.bytesRead !== size) throw new Mp4Error("the 'moov' box is cut short");
      return moov;
    }
    at += size;
  }
  throw new Mp4Error("no 'moov' box (the movie header): not an MP4 file, or one still being written");
}

/** The size a top-level header says, checked against what is left of the file. */
function sizeOf(head: Buffer, bytesRead: number, left: number, at: number): number {
  const size32 = bytesRead >= 8 ? head.readUInt32BE(0) : -1;
  if (size32 < 0 || (size32 === 1 && bytesRead < 16))
    throw new Mp4Error(`the file is cut short at byte ${at}`);
  const size = size32 === 1 ? Number(head.readBigUInt64BE(8)) : size32 === 0 ? left : size32;
  if (size < (size32 === 1 ? 16 : 8) || size > left) {
    throw new Mp4Error(
      `the top-level box at byte ${at} has a bad size (${size} bytes, ${left} left in the file)`,
    );
  }
  return size;
}
