#!/usr/bin/env node
// A stand-in for ffmpeg in supervisor tests. Flags:
//   --out-every MS     write one 188-byte packet to stdout every MS
//   --silent-after MS  stop writing to stdout after MS (to trigger the stale-output kill)
//   --exit-after MS    exit after MS with --code (default 1)
//   --ignore-sigint    survive SIGINT, so only SIGKILL ends it
//   --stderr TEXT      write TEXT to stderr at start (\r and \n are kept)
//   --grandchild       start `sleep 60` in the same process group and print "grandchild PID"
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const value = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const has = (name) => args.includes(name);

if (has('--ignore-sigint')) process.on('SIGINT', () => process.stderr.write('ignoring SIGINT\n'));
else process.on('SIGINT', () => process.exit(255));

const text = value('--stderr');
if (text) process.stderr.write(text.replaceAll('\\r', '\r').replaceAll('\\n', '\n'));

if (has('--grandchild')) {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  process.stderr.write(`grandchild ${child.pid}\n`);
}

const every = Number(value('--out-every') ?? 0);
const silentAfter = Number(value('--silent-after') ?? 0);
const startedAt = Date.now();
if (every > 0) {
  const packet = Buffer.alloc(188, 0xff);
  packet[0] = 0x47;
  setInterval(() => {
    if (silentAfter > 0 && Date.now() - startedAt > silentAfter) return;
    process.stdout.write(packet);
  }, every);
}

const exitAfter = Number(value('--exit-after') ?? 0);
if (exitAfter > 0) setTimeout(() => process.exit(Number(value('--code') ?? 1)), exitAfter);
else setInterval(() => undefined, 1 << 30);
