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

    // Internals of node-media-server 4.4 that GuardedRtmp (guarded-rtmp.ts) checks or overrides.
    parserPacket: RtmpPacket;
    inPackets: Map<number, RtmpPacket>;
    /** Reads the chunk message header into parserPacket (found or created in inPackets). */
    packetParse(): void;
    /** Sizes parserPacket's payload buffer for the message length, at the message's first chunk. */
    packetAlloc(): void;
    /** Dispatches a whole message by type. */
    packetHandler(): void;
    controlHandler(): void;
    invokeHandler(): void;
    dataHandler(): void;
    onConnect(message: AmfCommand): void;
    onCreateStream(message: AmfCommand): void;
    onPublish(message: AmfCommand): void;
    onPlay(message: AmfCommand): void;
    onDeleteStream(message: AmfCommand): void;
  }

  export interface RtmpPacket {
    header: { fmt: number; cid: number; timestamp: number; length: number; type: number; stream_id: number };
    clock: number;
    payload: Buffer;
    /** The payload buffer's size (it is reused, and only grows). */
    capacity: number;
    /** Bytes of the current message received so far. */
    bytes: number;
  }

  /** A decoded AMF0 command: its name, transaction id and named arguments (peer-given: any shape). */
  export interface AmfCommand {
    cmd?: unknown;
    transId?: unknown;
    cmdObj?: unknown;
    streamName?: unknown;
    [argument: string]: unknown;
  }
}

declare module 'node-media-server/src/protocol/amf.js' {
  import type { AmfCommand } from 'node-media-server/src/protocol/rtmp.js';
  const AMF: {
    /** Throws (RangeError, TypeError) on bytes that are not AMF0. */
    decodeAmf0Cmd(payload: Buffer): AmfCommand;
  };
  export default AMF;
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

declare module 'node-media-server/src/core/logger.js' {
  /** node-media-server's console logger (one instance for the package). */
  const logger: { levels: string[]; level: string };
  export default logger;
}
