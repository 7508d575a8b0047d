// What a peer poll costs (issue 22): one Sluice with STREAMS streams answers the peer call
// (GET /flussonic/api/cluster/server with a cluster key proof) POLLS times with its whole stream list
// and POLLS times with an unchanged list (streams_rev current: figures only), beside GET read_config
// (the console's whole-config call) on the same server. Server CPU from /proc, bytes as received.
// Then a second Sluice polls it as a peer for SECONDS (peer_poll_seconds 1): both processes' CPU
// beside the same two idle for as long. Arguments: [STREAMS=20000] [POLLS=20] [SECONDS=20]
import { loadavg } from 'node:os';
import { auth, cpuSeconds, sleep, startSluice } from '../lib/media.mjs';
import { CLUSTER_PROOF_HEADER, signClusterRequest } from '../../packages/server/dist/cluster/proof.js';

const KEY = 'bench-cluster-key';
const PEER_PATH = '/flussonic/api/cluster/server';

function configText(streams) {
  let text = `http {http};\nedit_auth admin bench-pw;\ncluster_key ${KEY};\n`;
  for (let i = 0; i < streams; i++)
    text += `stream cam${i} {\n  url udp://239.0.${(i >> 8) & 255}.${i & 255}:1234;\n}\n`;
  return text;
}

/**
 * Mean server CPU ms and bytes of `count` calls of `call` (each answers a Response); the server's
 * own idle CPU over the same wall time (`idleMsPerMs`, measured before) is taken off.
 */
async function measure(pid, count, call, idleMsPerMs = 0) {
  let bytes = 0;
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const response = await call();
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    bytes += (await response.arrayBuffer()).byteLength;
  }
  const wallMs = performance.now() - t0;
  const cpuMs = (cpuSeconds(pid) - cpu0) * 1000 - idleMsPerMs * wallMs;
  return { cpuMs: Math.max(0, cpuMs) / count, bytes: bytes / count, wallMs: wallMs / count };
}

export async function run({ args = [] } = {}) {
  const streams = Number(args[0] ?? 20_000);
  const polls = Number(args[1] ?? 20);
  const seconds = Number(args[2] ?? 20);
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const peer = await startSluice(configText(streams));
  const poller = await startSluice(
    `http {http};\nedit_auth admin bench-pw;\ncluster_key ${KEY};\npeer_poll_seconds 1;\n`,
  );
  try {
    const pid = peer.child.pid;
    const ask = (rev) =>
      fetch(`${peer.base}${PEER_PATH}${rev ? `?streams_rev=${rev}` : ''}`, {
        headers: { [CLUSTER_PROOF_HEADER]: signClusterRequest(KEY, PEER_PATH) },
      });
    // Warm up: the first answer builds the list; its rev is what a poller then sends.
    const first = await (await ask()).json();
    if (first.streams.length < streams) throw new Error(`the peer lists ${first.streams.length} streams`);
    await (await peer.api('/flussonic/api/read_config')).arrayBuffer();
    // The server's CPU while nobody asks (its per-second stats over 20,000 streams…), taken off each figure.
    const idleStart = cpuSeconds(pid);
    await sleep(10_000);
    const idleMsPerMs = ((cpuSeconds(pid) - idleStart) * 1000) / 10_000;
    console.log(`peer idle: ${(idleMsPerMs * 100).toFixed(2)} % of a core (taken off the figures below)`);
    // Built at most once a second: a poll a second later walks the streams again (as a real poller's).
    const full = await measure(pid, polls, async () => (await sleep(1000), ask()), idleMsPerMs);
    const delta = await measure(
      pid,
      polls,
      async () => (await sleep(1000), ask(first.streams_rev)),
      idleMsPerMs,
    );
    const reference = await measure(pid, polls, () => peer.api('/flussonic/api/read_config'), idleMsPerMs);
    const row = (what, m) =>
      console.log(
        `${what.padEnd(44)} ${m.cpuMs.toFixed(1).padStart(8)} ms CPU ${(m.bytes / 1024).toFixed(1).padStart(10)} KiB ${m.wallMs.toFixed(0).padStart(6)} ms wall`,
      );
    console.log(`${streams} streams on the peer, ${polls} calls each (server CPU per call, bytes per call):`);
    // Wall of the poll rows includes the 1 s pause before each.
    row('peer poll, whole stream list', full);
    row('peer poll, list unchanged (streams_rev)', delta);
    row('reference: GET read_config', reference);
    console.log(
      `  unchanged-list poll / read_config: ${(delta.cpuMs / reference.cpuMs).toFixed(3)}x CPU, ${(delta.bytes / reference.bytes).toFixed(4)}x bytes`,
    );
    console.log(
      `  whole-list poll / read_config: ${(full.cpuMs / reference.cpuMs).toFixed(3)}x CPU, ${(full.bytes / reference.bytes).toFixed(4)}x bytes`,
    );

    // A real poller: idle first, then polling the peer each second.
    const idle0 = [cpuSeconds(pid), cpuSeconds(poller.child.pid)];
    await sleep(seconds * 1000);
    const idle = [cpuSeconds(pid) - idle0[0], cpuSeconds(poller.child.pid) - idle0[1]];
    const response = await poller.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ peers: { '127.0.0.1': { name: '127.0.0.1', port: peer.port } } }),
    });
    if (!response.ok) throw new Error(`modify_config: ${response.status}`);
    // Until the first poll has the list.
    for (;;) {
      const all = await (
        await fetch(`${poller.base}/flussonic/api/cluster_servers`, { headers: { authorization: auth } })
      ).json();
      if (all['127.0.0.1']?.error === null) break;
      await sleep(200);
    }
    const busy0 = [cpuSeconds(pid), cpuSeconds(poller.child.pid)];
    await sleep(seconds * 1000);
    const busy = [cpuSeconds(pid) - busy0[0], cpuSeconds(poller.child.pid) - busy0[1]];
    const pct = (s) => `${((s / seconds) * 100).toFixed(2)} % of a core`;
    console.log(`polled each second for ${seconds} s (steady list) beside the same ${seconds} s idle:`);
    console.log(`  peer:   ${pct(busy[0])} polled, ${pct(idle[0])} idle`);
    console.log(`  poller: ${pct(busy[1])} polling, ${pct(idle[1])} idle`);
  } finally {
    await Promise.all([peer.stop(), poller.stop()]);
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  }
}
