/** One track of a CMAF fragment: what the init segment says about it and the samples of one fragment. */
export interface Fmp4Track {
  /** track_ID: 1 for video, then audio; the same in every fragment of one init. */
  id: number;
  kind: 'video' | 'audio';
  /** Ticks per second: 90 kHz (the TS clock) for video, the sample rate for audio. */
  timescale: number;
  /** RFC 6381 codec string (avc1.64001f, hvc1.1.6.L93.B0, mp4a.40.2). */
  codec: string;
  /** The sample entry box of stsd (avc1/hvc1 with avcC/hvcC, mp4a with esds). */
  sampleEntry: Buffer;
  width?: number;
  height?: number;
  /** tfdt: the first sample's decode time, in timescale ticks. */
  baseDecodeTime: number;
  samples: Fmp4Sample[];
}

export interface Fmp4Sample {
  /** The sample's bytes, in pieces (length prefixes and NAL units), written one after another. */
  parts: Buffer[];
  size: number;
  duration: number;
  /** Presentation minus decode time, in ticks; negative is allowed (trun version 1). */
  compositionOffset: number;
  /** A sync sample: a decoder can start here (IDR/IRAP picture; every AAC frame). */
  sync: boolean;
}
