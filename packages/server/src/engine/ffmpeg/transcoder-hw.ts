import type { Transcoder } from '@sluice/api';

/**
 * What differs between the transcoder's hardware kinds (spec 001 §3 global.hw): the decoder flags
 * placed before the input, and the encoder of each codec. Only `cpu` runs on this machine; the
 * others are argv, tested by exact value, for machines that have the devices.
 */
export type Hardware = 'cpu' | 'qsv' | 'nvenc' | 'coder';
export type VideoCodec = 'h264' | 'hevc' | 'mp2v';
type Decoder = NonNullable<Transcoder['decoder']>;

/** The source's video, as the source bus's demuxer read it. */
export interface SourceVideo {
  /** media_info codec name: h264, hevc, mpeg2video… */
  codec: string | undefined;
  width: number | undefined;
  height: number | undefined;
}

/** The encoder ffmpeg runs for a codec on a hardware kind. */
export function encoderName(hw: Hardware, codec: VideoCodec): string {
  const software: Record<VideoCodec, string> = { h264: 'libx264', hevc: 'libx265', mp2v: 'mpeg2video' };
  // NVENC and V4L2 M2M have no MPEG-2 encoder: MPEG-2 renditions are encoded on the CPU there.
  if (hw === 'nvenc') return { h264: 'h264_nvenc', hevc: 'hevc_nvenc', mp2v: 'mpeg2video' }[codec];
  if (hw === 'qsv') return { h264: 'h264_qsv', hevc: 'hevc_qsv', mp2v: 'mpeg2_qsv' }[codec];
  if (hw === 'coder') return { h264: 'h264_v4l2m2m', hevc: 'hevc_v4l2m2m', mp2v: 'mpeg2video' }[codec];
  return software[codec];
}

/** CUVID (NVDEC) decoders by the source codec's media_info name. */
const CUVID: Record<string, string> = {
  h264: 'h264_cuvid',
  hevc: 'hevc_cuvid',
  mpeg2video: 'mpeg2_cuvid',
  mp2v: 'mpeg2_cuvid',
};
/** Quick Sync decoders by the source codec's media_info name. */
const QSV_DECODERS: Record<string, string> = {
  h264: 'h264_qsv',
  hevc: 'hevc_qsv',
  mpeg2video: 'mpeg2_qsv',
  mp2v: 'mpeg2_qsv',
};

/** Intel render nodes are numbered from 128 (/dev/dri/renderD128 is the first GPU). */
export const renderNode = (deviceId: number): string => `/dev/dri/renderD${128 + deviceId}`;

/**
 * Flags before `-i`: the decoder and its options. `deinterlaceOnDecoder` tells the filter graph
 * whether deinterlacing (and crop) already happened in the decoder, as NVDEC does it.
 */
export function decoderArgs(
  hw: Hardware,
  deviceId: number,
  decoder: Decoder,
  source: SourceVideo,
): { args: string[]; deinterlaceOnDecoder: boolean } {
  // -threads before -i is the decoder's thread count (after -i it would be the encoders').
  const threads = decoder.threads ? ['-threads', String(decoder.threads)] : [];
  if (hw === 'nvenc') {
    const cuvid = source.codec ? CUVID[source.codec] : undefined;
    // An unknown source codec is decoded on the CPU; the renditions are still NVENC-encoded.
    if (!cuvid) return { args: threads, deinterlaceOnDecoder: false };
    const args = [...threads, '-c:v', cuvid, '-gpu', String(deviceId)];
    const mode = nvdecDeinterlace(decoder.deinterlace);
    // CUVID deinterlaces in the decoder: weave keeps the fields woven, bob makes a frame per
    // field, adaptive blends by motion (spec 001 §9: bob, adaptive and weave are nvenc modes).
    if (mode) args.push('-deint', mode);
    // Half the frames of bob/adaptive: one output frame per interlaced frame, not per field.
    if (decoder.drop_second) args.push('-drop_second_field', '1');
    const crop = decoder.crop;
    // CUVID crops by the pixels to cut from each edge, so the source's size must be known.
    if (crop && source.width && source.height) {
      const bottom = source.height - crop.top - crop.height;
      const right = source.width - crop.left - crop.width;
      args.push('-crop', `${crop.top}x${Math.max(0, bottom)}x${crop.left}x${Math.max(0, right)}`);
    }
    // No -hwaccel_output_format cuda: frames come back to system memory, so scaling and the logo
    // overlay run through the same CPU filters as with hw cpu, and NVENC takes them from there.
    return { args, deinterlaceOnDecoder: true };
  }
  if (hw === 'qsv') {
    const decoderName = source.codec ? QSV_DECODERS[source.codec] : undefined;
    const device = ['-qsv_device', renderNode(deviceId)];
    // -hwaccel qsv decodes on the GPU; frames are downloaded for the CPU filters.
    if (!decoderName)
      return { args: [...threads, '-hwaccel', 'qsv', ...device], deinterlaceOnDecoder: false };
    return {
      args: [...threads, '-hwaccel', 'qsv', ...device, '-c:v', decoderName],
      deinterlaceOnDecoder: false,
    };
  }
  // cpu, and coder (its V4L2 M2M devices encode; decoding stays on the CPU).
  return { args: threads, deinterlaceOnDecoder: false };
}

function nvdecDeinterlace(mode: Decoder['deinterlace']): string | undefined {
  if (mode === 'bob' || mode === 'adaptive' || mode === 'weave') return mode;
  if (mode === 'on' || mode === true) return 'adaptive';
  return undefined;
}

/**
 * CPU deinterlacing (hw cpu, qsv, coder): yadif for 'on'; bwdif for the field modes, which keeps
 * motion smoother. deint=interlaced touches only frames flagged interlaced, so a progressive
 * source passes untouched. drop_second keeps one frame per frame instead of one per field.
 */
export function cpuDeinterlaceFilter(mode: Decoder['deinterlace'], dropSecond = false): string | undefined {
  if (mode === 'on' || mode === true) return 'yadif=mode=send_frame:parity=auto:deint=interlaced';
  if (mode === 'bob')
    return `bwdif=mode=${dropSecond ? 'send_frame' : 'send_field'}:parity=auto:deint=interlaced`;
  if (mode === 'adaptive') return 'bwdif=mode=send_frame:parity=auto:deint=interlaced';
  // off, weave (fields kept woven), or unset.
  return undefined;
}
