// Types for the two protocol modules of node-media-server 4 that Sluice uses (the package ships JS with
// JSDoc only, and @types covers v2). Sluice runs its own TCP server and sessions around them.
declare module 'node-media-server/src/protocol/rtmp.js' {
  import type { AVPacket } from 'node-media-server/src/core/avpacket.js';
  export default class Rtmp {
    onConnectCallback: (req: {
      app: string;
      name: string;
      host: string;
      query: Record<string, string | string[] | undefined>;
    }) => void;
    onPlayCallback: () => void;
    onPushCallback: () => void;
    onPacketCallback: (packet: AVPacket) => void;
    onOutputCallback: (buffer: Buffer) => void;
    /** Feeds bytes from the socket; returns an error message or null. */
    parserData(buffer: Buffer): string | null;
    /** Packs one media message (audio, video or script data) as RTMP chunks, ready to write. */
    static createMessage(packet: AVPacket): Buffer;
  }
}

declare module 'node-media-server/src/protocol/flv.js' {
  import type { AVPacket } from 'node-media-server/src/core/avpacket.js';
  export default class Flv {
    static createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
    static createMessage(packet: AVPacket): Buffer;
    /** Called for each whole tag parserData() reads; the packet's data buffer is reused for the next. */
    onPacketCallback: (packet: AVPacket) => void;
    /** Feeds FLV bytes (header first); returns an error message or null. */
    parserData(buffer: Buffer): string | null;
  }
}

declare module 'node-media-server/src/core/avpacket.js' {
  export interface AVPacket {
    codec_id: number;
    /** FLV tag type: 8 audio, 9 video, 18 script data. */
    codec_type: number;
    flags: number;
    pts: number;
    dts: number;
    size: number;
    data: Buffer;
  }
}
