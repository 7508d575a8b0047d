/** FLV's 9-byte file header and the PreviousTagSize0 after it (FLV spec E.2, E.3). */
const FILE_HEADER_BYTES = 13;
const TAG_HEADER_BYTES = 11;
const PREVIOUS_SIZE_BYTES = 4;

/** One FLV tag: type (8 audio, 9 video, 18 script), timestamp in ms, and its body. */
export interface FlvTag {
  type: number;
  timestampMs: number;
  data: Buffer;
}

/**
 * Splits an FLV byte stream into tags. A tag that lies whole in one pushed buffer is handed on as a
 * view of it, without a copy (an RTMP publish pushes exactly one tag per buffer); only a tag split
 * across buffers is joined. The views stay valid as long as the caller does not reuse the buffers it
 * pushed. `push` returns an error text when a tag's trailing size does not match its header.
 */
export class FlvTagReader {
  private headerLeft = FILE_HEADER_BYTES;
  /** A tag split across pushes: its pieces so far, and how many bytes it needs in all. */
  private pieces: Buffer[] = [];
  private piecesBytes = 0;
  private piecesNeed = 0;

  constructor(private readonly onTag: (tag: FlvTag) => void) {}

  push(input: Buffer): string | undefined {
    let data = input;
    if (this.headerLeft > 0) {
      const skip = Math.min(this.headerLeft, data.length);
      this.headerLeft -= skip;
      data = data.subarray(skip);
    }
    if (this.pieces.length > 0) {
      // Joined once the tag is whole, not at every push: a large tag in small pushes is copied once.
      this.pieces.push(data);
      this.piecesBytes += data.length;
      if (this.piecesBytes < this.piecesNeed) return undefined;
      data = Buffer.concat(this.pieces);
      this.pieces = [];
    }
    let o = 0;
    while (o + TAG_HEADER_BYTES <= data.length) {
      const size = (data[o + 1]! << 16) | (data[o + 2]! << 8) | data[o + 3]!;
      const end = o + TAG_HEADER_BYTES + size + PREVIOUS_SIZE_BYTES;
      if (end > data.length) break;
      if (data.readUInt32BE(end - PREVIOUS_SIZE_BYTES) !== size + TAG_HEADER_BYTES)
        return 'flv tag parser error';
      const timestampMs =
        ((data[o + 7]! << 24) | (data[o + 4]! << 16) | (data[o + 5]! << 8) | data[o + 6]!) >>> 0;
      this.onTag({
        type: data[o]! & 0x1f,
        timestampMs,
        data: data.subarray(o + TAG_HEADER_BYTES, o + TAG_HEADER_BYTES + size),
      });
      o = end;
    }
    if (o < data.length) {
      const rest = data.subarray(o);
      this.pieces = [rest];
      this.piecesBytes = rest.length;
      this.piecesNeed =
        rest.length < TAG_HEADER_BYTES
          ? TAG_HEADER_BYTES
          : TAG_HEADER_BYTES + ((rest[1]! << 16) | (rest[2]! << 8) | rest[3]!) + PREVIOUS_SIZE_BYTES;
    }
    return undefined;
  }
}

/** An FLV tag (FLV spec E.4.1) holding `body`, with its trailing PreviousTagSize: one allocation, one copy. */
export function flvTagBytes(type: number, timestampMs: number, body: Buffer): Buffer {
  const tag = Buffer.allocUnsafe(TAG_HEADER_BYTES + body.length + PREVIOUS_SIZE_BYTES);
  tag[0] = type;
  tag.writeUIntBE(body.length, 1, 3);
  tag[4] = (timestampMs >> 16) & 0xff;
  tag[5] = (timestampMs >> 8) & 0xff;
  tag[6] = timestampMs & 0xff;
  tag[7] = (timestampMs >> 24) & 0xff;
  tag[8] = tag[9] = tag[10] = 0; // stream id, always 0
  body.copy(tag, TAG_HEADER_BYTES);
  tag.writeUInt32BE(TAG_HEADER_BYTES + body.length, TAG_HEADER_BYTES + body.length);
  return tag;
}
