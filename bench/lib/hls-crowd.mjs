// A worker thread playing `count` real-time HLS players (hls-player.mjs), started `spacingMs` apart,
// each as its own session (user agent `bench-player/N`); posts every player's counts at the end.
import { parentPort, workerData } from 'node:worker_threads';
import { play } from './hls-player.mjs';

const { playlistUrl, first, count, spacingMs, untilMs } = workerData;
// performance.now() counts from each thread's start: the deadline comes as wall-clock time.
const until = performance.now() + (untilMs - Date.now());
const players = [];
for (let i = 0; i < count; i++) {
  players.push(play(playlistUrl, `bench-player/${first + i}`, until));
  await new Promise((r) => setTimeout(r, spacingMs));
}
parentPort.postMessage(await Promise.all(players));
