/**
 * The empty edit at the head of an fMP4 init segment (ISO 14496-12 §8.6.6, `elst` entry with
 * media_time −1): how long ffmpeg delays a track that starts after the other one. ffmpeg's MPD
 * counts that delay in the track's S@t, but its fragments' tfdt do not, and MSE players (Chromium
 * under dash.js) ignore the edit: they place the track's first frame that much earlier than the
 * MPD says. See dash-periods.ts for what that cost.
 */

const CONTAINERS = new Set(['moov', 'trak', 'edts']);

/** Seconds of the first track's leading empty edit; 0 when it has none or the box can't be read. */
export function emptyEditS(init: Buffer): number {
  let movieTimescale = 0;
  let editS = 0;
  const walk = (from: number, to: number, depth: number): void => {
    for (let o = from; o + 8 <= to && depth < 4;) {
      const size = init.readUInt32BE(o);
      const type = init.toString('latin1', o + 4, o + 8);
      if (size < 8 || o + size > to) return;
      if (CONTAINERS.has(type)) walk(o + 8, o + size, depth + 1);
      else if (type === 'mvhd' && o + 32 <= o + size) {
        const version = init[o + 8]!;
        movieTimescale = init.readUInt32BE(o + (version === 1 ? 28 : 20));
      } else if (type === 'elst' && o + 16 <= o + size && !editS) {
        const version = init[o + 8]!;
        const count = init.readUInt32BE(o + 12);
        const entry = o + 16;
        if (count === 0 || entry + (version === 1 ? 20 : 12) > o + size) return;
        const duration = version === 1 ? Number(init.readBigUInt64BE(entry)) : init.readUInt32BE(entry);
        const mediaTime =
          version === 1 ? init.readBigInt64BE(entry + 8) : BigInt(init.readInt32BE(entry + 4));
        if (mediaTime === -1n && movieTimescale > 0) editS = duration / movieTimescale;
      }
      o += size;
    }
  };
  walk(0, init.length, 0);
  return editS;
}
