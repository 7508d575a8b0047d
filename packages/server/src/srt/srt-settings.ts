import { createSocket } from 'node:dgram';
import { type Config, isPlainObject } from '@sluice/api';

/** One SRT port of a stream: `srt_publish { port N; passphrase P; }` or `srt_play { … }`. */
export interface SrtPortSpec {
  stream: string;
  kind: 'publish' | 'play';
  port: number;
  /** The SRT passphrase (10–79 characters); the stream's password when none is given; none: unencrypted. */
  passphrase: string | undefined;
  /** The stream's publish password, proven by the passphrase. */
  streamPassword: string | undefined;
}

/**
 * The SRT ports the config asks for, keyed `kind:port` (one port serves one stream and one direction);
 * with `only`, those that these streams ask for.
 */
export function srtPorts(config: Config, only?: readonly string[]): Map<string, SrtPortSpec> {
  const ports = new Map<string, SrtPortSpec>();
  const streams = config.streams ?? {};
  for (const stream of only ?? Object.keys(streams)) {
    const entry = streams[stream];
    if (!entry || entry.disabled) continue;
    for (const kind of ['publish', 'play'] as const) {
      const block: unknown = (entry as Record<string, unknown>)[`srt_${kind}`];
      const port = isPlainObject(block) ? Number(block.port) : NaN;
      if (!Number.isInteger(port) || port < 1 || port > 65535) continue;
      const own =
        isPlainObject(block) && block.passphrase !== undefined ? String(block.passphrase) : undefined;
      ports.set(`${kind}:${port}`, {
        stream,
        kind,
        port,
        passphrase: own ?? entry.password,
        streamPassword: entry.password,
      });
    }
  }
  return ports;
}

/** libsrt takes a passphrase of 10 to 79 characters: anything else could never be matched. */
export function passphraseRefusal(passphrase: string | undefined): string | undefined {
  if (passphrase === undefined) return undefined;
  if (passphrase.length < 10 || passphrase.length > 79)
    return 'the SRT passphrase (or the stream password standing for it) must be 10 to 79 characters';
  return undefined;
}

/** ffmpeg's libsrt listener on loopback, where the relay sends a caller's datagrams. */
export function srtListenerUrl(port: number, passphrase: string | undefined, latencyMs?: number): string {
  const query = new URLSearchParams({ mode: 'listener' });
  if (passphrase) query.set('passphrase', passphrase);
  // ffmpeg's libsrt takes latency in microseconds.
  if (latencyMs !== undefined) query.set('latency', String(latencyMs * 1000));
  return `srt://127.0.0.1:${port}?${query.toString()}`;
}

/** A UDP port free on loopback now, for an ffmpeg listener. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** The reason libsrt logs when it refuses a caller's handshake (a wrong passphrase), if `line` is that. */
export function srtRefusal(line: string): string | undefined {
  return /rsp\(REJECT\): \d+ - ([^\d:]+?)(?:\d\d:|$)/.exec(line)?.[1]?.trim().toLowerCase();
}
