import { readFile } from 'node:fs/promises';
import { type Fmp4Options, type Fmp4Segment, tsToFmp4, videoParameterSets } from './ts-to-fmp4.js';

/** Archive files read back for parameter sets: a GOP longer than this many segments is not expected. */
const MAX_LOOK_BACK = 8;

export interface TsFileOptions extends Fmp4Options {
  /**
   * The files before this one in the archive, oldest first (only the newest few are read): where a
   * segment cut inside a GOP finds the SPS/PPS it carries none of. Leave out files before a break
   * (a `d` segment starts a new source, which brings its own).
   */
  before?: readonly string[];
}

/**
 * One archived MPEG-TS segment file (dvr/layout.ts) as CMAF init + fragment, for archive fMP4 HLS
 * (index-FROM-DURATION.fmp4.m3u8 and its kin). Rejects with the remuxer's reason when the file
 * holds nothing it can carry (H.264/HEVC video, AAC audio).
 */
export async function tsFileToFmp4(path: string, options: TsFileOptions = {}): Promise<Fmp4Segment> {
  const data = await readFile(path);
  if (options.parameterSets || !options.before?.length) return tsToFmp4(data, options);
  try {
    return tsToFmp4(data, options);
  } catch (error) {
    for (const file of options.before.slice(-MAX_LOOK_BACK).reverse()) {
      const parameterSets = videoParameterSets(await readFile(file));
      if (parameterSets.length > 0) return tsToFmp4(data, { ...options, parameterSets });
    }
    throw error;
  }
}
