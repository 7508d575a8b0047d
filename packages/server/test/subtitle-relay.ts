import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { SubtitlePackets, subtitlePmt } from './subtitle-ts-fixture.js';

/** Program 2's PMT and picture PID in the multiplex ffmpeg sends (`-program program_num=2`). */
export const PROGRAM2_PMT = 0x1001;
export const PROGRAM2_VIDEO = 0x102;

/** The program clock reference of a packet, in 90 kHz ticks, if it carries one. */
export function pcrOf(packet: Buffer): number | undefined {
  if ((packet[3]! & 0x20) === 0 || packet[4] === 0 || (packet[5]! & 0x10) === 0) return undefined;
  return (
    packet[6]! * 2 ** 25 + packet[7]! * 2 ** 17 + packet[8]! * 2 ** 9 + packet[9]! * 2 + (packet[10]! >> 7)
  );
}

/**
 * Adds the subtitle PIDs to program 2 of each datagram: its PMT lists them, a page a second saying
 * `Line N` (N counts from 0), due at `pts` a second after the clock. `onPage` hears each page sent.
 */
export function withSubtitles(onPage?: (pts: number, text: string) => void): (datagram: Buffer) => Buffer {
  const writer = new SubtitlePackets();
  const pmt = subtitlePmt(2, PROGRAM2_VIDEO, PROGRAM2_VIDEO);
  let next: number | undefined;
  let line = 0;
  return (datagram) => {
    const out: Buffer[] = [];
    for (let o = 0; o + 188 <= datagram.length; o += 188) {
      const packet = datagram.subarray(o, o + 188);
      const pid = ((packet[1]! & 0x1f) << 8) | packet[2]!;
      if (pid === PROGRAM2_PMT) {
        out.push(writer.psi(PROGRAM2_PMT, pmt));
        continue;
      }
      out.push(packet);
      const pcr = pid === PROGRAM2_VIDEO ? pcrOf(packet) : undefined;
      if (pcr === undefined || (next !== undefined && pcr < next)) continue;
      next = pcr + 90_000;
      // ffmpeg's PTS run 0.7 s or so ahead of its PCR: due a second after the clock, in time.
      const text = `Line ${line++}`;
      onPage?.(pcr + 90_000, text);
      out.push(...writer.second(pcr + 90_000, text));
    }
    return Buffer.concat(out);
  };
}

/**
 * A live DVB program 2 over UDP to `ports`: a 192x144 picture (ffmpeg, 25 fps, GOP 1 s) with the
 * French DVB subtitles and German teletext subtitles of subtitle-ts-fixture.ts added on the way.
 */
export async function startTeletextRelay(
  ports: number[],
  onPage?: (pts: number, text: string) => void,
): Promise<{ relay: Socket; encoder: ChildProcess }> {
  const relay = createSocket('udp4');
  await new Promise<void>((resolve) => relay.bind(0, '127.0.0.1', resolve));
  const inject = withSubtitles(onPage);
  relay.on('message', (datagram) => {
    const multiplex = inject(datagram);
    for (const port of ports) relay.send(multiplex, port, '127.0.0.1');
  });
  const encoder = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=192x144:rate=25'],
      ...[
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-pix_fmt',
        'yuv420p',
        '-g',
        '25',
      ],
      ...['-program', 'program_num=2:st=0', '-mpegts_pmt_start_pid', String(PROGRAM2_PMT)],
      ...['-mpegts_start_pid', String(PROGRAM2_VIDEO)],
      ...['-f', 'mpegts', `udp://127.0.0.1:${relay.address().port}?pkt_size=1316`],
    ],
    { stdio: 'ignore' },
  );
  return { relay, encoder };
}
