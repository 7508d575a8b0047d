import nmsLogger from 'node-media-server/src/core/logger.js';
import AMF from 'node-media-server/src/protocol/amf.js';
import Rtmp, { type AmfCommand } from 'node-media-server/src/protocol/rtmp.js';
import type { RtmpLimits } from './rtmp-limits.js';

// node-media-server's own logger writes to stdout with console.log, one line per unreadable AMF
// message or unknown command: a peer could fill the output with them. Its level is set past
// every level it has; Sluice logs each refusal itself, once per connection.
nmsLogger.levels = [...nmsLogger.levels.filter((l) => l !== 'off'), 'off'];
nmsLogger.level = 'off';

/** What a peer sent that ends its connection: the message says what was wrong, for the log. */
export class RtmpRefusal extends Error {}

/** Thrown to stop parsing the rest of a read once the connection was ended; nothing to log. */
export class RtmpHalted extends Error {}

const TYPE_SET_CHUNK_SIZE = 1;
const TYPE_WINDOW_ACK_SIZE = 5;
const TYPE_AUDIO = 8;
const TYPE_VIDEO = 9;
const TYPE_FLEX_MESSAGE = 17;
/** RTMP 1.0 §5.4.1: the chunk size is 31 bits, at least 1. */
const MAX_CHUNK_SIZE = 0x7fffffff;
/** node-media-server sizes a payload buffer this much over the message length. */
const PAYLOAD_SLACK_BYTES = 1024;
/** FLV video tag header (E.4.3.1): frame type and codec, packet type, 3-byte composition time. */
const VIDEO_HEADER_BYTES = 5;
/** The enhanced-RTMP HEVC coded frames header: byte 0, FourCC, 3-byte composition time. */
const HEVC_CODED_FRAMES_HEADER_BYTES = 8;
const SOUND_AAC = 10;

/**
 * node-media-server's RTMP protocol engine with every peer-given value checked before it is used.
 * The engine itself trusts its input: a `connect` whose tcUrl is not a URL, a publish without a
 * name, truncated AMF or a video message shorter than its header throw from inside its parser,
 * and a message header makes it reserve the message's length (up to 16 MB) at once, per chunk
 * stream. Here each of those is refused with an RtmpRefusal (the caller ends the connection and
 * logs why), and memory is bounded by `limits`. Relies on internals of node-media-server 4.4
 * (declared in node-media-server.d.ts).
 */
export class GuardedRtmp extends Rtmp {
  /**
   * Each audio or video message: its type (8, 9), timestamp (ms) and body, a view of the engine's
   * buffer valid during the call only. Handed on as it is: node-media-server's own path builds an
   * AVPacket and parses codec headers of every message, which nothing here reads.
   */
  onMediaCallback: (type: number, timestampMs: number, body: Buffer) => void = () => undefined;
  private connected = false;
  private started = false;
  private halted = false;

  /** `publishing` tells whether media up to the media limit is taken now (a publish was asked). */
  constructor(
    private readonly limits: RtmpLimits,
    private readonly publishing: () => boolean,
  ) {
    super();
  }

  /** The connection is ended: whatever is left of the current read is not parsed. */
  halt(): void {
    this.halted = true;
  }

  override packetParse(): void {
    super.packetParse();
    const packet = this.parserPacket;
    if (this.inPackets.size > this.limits.maxChunkStreams)
      throw new RtmpRefusal(`more than ${this.limits.maxChunkStreams} chunk streams`);
    // A type 0 or 1 header starts a message: inside an unfinished one it would change its length
    // under the bytes already copied.
    if (packet.bytes > 0 && packet.header.fmt <= 1)
      throw new RtmpRefusal(`a new message header on chunk stream ${packet.header.cid} inside a message`);
  }

  override packetAlloc(): void {
    const { header, capacity } = this.parserPacket;
    const media = header.type === TYPE_AUDIO || header.type === TYPE_VIDEO;
    const max =
      media && this.publishing() ? this.limits.maxMediaMessageBytes : this.limits.maxCommandMessageBytes;
    if (header.length > max)
      throw new RtmpRefusal(`a message of ${header.length} bytes (type ${header.type}), over ${max}`);
    if (capacity < header.length) {
      let reserved = header.length + PAYLOAD_SLACK_BYTES;
      for (const other of this.inPackets.values())
        if (other !== this.parserPacket) reserved += other.capacity;
      if (reserved > this.limits.maxPayloadBytesPerConnection)
        throw new RtmpRefusal(
          `message buffers of ${reserved} bytes, over ${this.limits.maxPayloadBytesPerConnection}`,
        );
    }
    super.packetAlloc();
  }

  override packetHandler(): void {
    if (this.halted) throw new RtmpHalted();
    super.packetHandler();
  }

  override controlHandler(): void {
    const { type, length } = this.parserPacket.header;
    if (type === TYPE_SET_CHUNK_SIZE || type === TYPE_WINDOW_ACK_SIZE) {
      if (length < 4) throw new RtmpRefusal(`a control message (type ${type}) of ${length} bytes, not 4`);
      const size = this.parserPacket.payload.readUInt32BE(0);
      if (type === TYPE_SET_CHUNK_SIZE && (size < 1 || size > MAX_CHUNK_SIZE))
        throw new RtmpRefusal(`chunk size ${size}, not 1 to ${MAX_CHUNK_SIZE}`);
    }
    super.controlHandler();
  }

  /** node-media-server's own dispatch, with the AMF decoding errors caught as a refusal. */
  override invokeHandler(): void {
    const { type, length } = this.parserPacket.header;
    // An AMF3 command message (type 17) has a format byte before its AMF0 body.
    const payload = this.parserPacket.payload.subarray(type === TYPE_FLEX_MESSAGE ? 1 : 0, length);
    let message: AmfCommand;
    try {
      message = AMF.decodeAmf0Cmd(payload);
    } catch (error) {
      throw new RtmpRefusal(`an unreadable AMF command (${(error as Error).message})`);
    }
    if (message.cmd === 'connect') this.onConnect(message);
    else if (message.cmd === 'createStream') this.onCreateStream(message);
    else if (message.cmd === 'publish') this.onPublish(message);
    else if (message.cmd === 'play') this.onPlay(message);
  }

  override dataHandler(): void {
    const { type, length } = this.parserPacket.header;
    const data = this.parserPacket.payload;
    // An empty audio or video message carries nothing to pass on (some encoders send them).
    if ((type === TYPE_AUDIO || type === TYPE_VIDEO) && length === 0) return;
    if (type === TYPE_VIDEO) {
      const exHeader = (data[0]! & 0x80) !== 0;
      const hevcFrames = exHeader && (data[0]! & 0x0f) === 1 && data.subarray(1, 5).toString() === 'hvc1';
      const needed = hevcFrames ? HEVC_CODED_FRAMES_HEADER_BYTES : VIDEO_HEADER_BYTES;
      if (length < needed)
        throw new RtmpRefusal(`a video message of ${length} bytes, under its ${needed}-byte header`);
    }
    if (type === TYPE_AUDIO && data[0]! >> 4 === SOUND_AAC && length < 2)
      throw new RtmpRefusal(`an AAC audio message of ${length} byte, under its 2-byte header`);
    if (type === TYPE_AUDIO || type === TYPE_VIDEO)
      return this.onMediaCallback(type, this.parserPacket.clock, data.subarray(0, length));
    super.dataHandler();
  }

  override onConnect(message: AmfCommand): void {
    if (this.connected) throw new RtmpRefusal('a second connect');
    const command = message.cmdObj as Record<string, unknown> | null | undefined;
    if (typeof command !== 'object' || command === null)
      throw new RtmpRefusal('a connect without its command object');
    if (typeof command.app !== 'string') throw new RtmpRefusal('a connect without an app name');
    const tcUrl = command.tcUrl;
    if (tcUrl !== undefined && (typeof tcUrl !== 'string' || !URL.canParse(tcUrl)))
      throw new RtmpRefusal('a connect whose tcUrl is not a URL');
    this.connected = true;
    // node-media-server reads the host from tcUrl; Sluice does not use it, so one that is absent
    // is given a placeholder rather than refused.
    super.onConnect({ ...message, cmdObj: { ...command, tcUrl: tcUrl ?? 'rtmp://localhost/' } });
  }

  override onPublish(message: AmfCommand): void {
    this.checkStart('publish', message);
    super.onPublish(message);
  }

  override onPlay(message: AmfCommand): void {
    this.checkStart('play', message);
    super.onPlay(message);
  }

  /** One publish or play per connection, after connect, naming a stream. */
  private checkStart(what: string, message: AmfCommand): void {
    if (!this.connected) throw new RtmpRefusal(`a ${what} before connect`);
    if (this.started) throw new RtmpRefusal(`a ${what} after a publish or play on the same connection`);
    const name = message.streamName;
    if (typeof name !== 'string' || name.split('?')[0] === '')
      throw new RtmpRefusal(`a ${what} without a stream name`);
    this.started = true;
  }
}
