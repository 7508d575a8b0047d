// wrk (Debian package `wrk`, scripts/bootstrap.sh --with-bench) run once, its report read into
// numbers: requests/s, bytes read, latency percentiles, timeouts and other socket errors.
import { spawnSync } from 'node:child_process';

const UNITS = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
/** wrk's request timeout: a request unanswered this long counts as a timeout. */
export const WRK_TIMEOUT_S = 2;

/** wrk prints sizes as `11.05GB`, `530.00KB`, `12B`. */
function bytesOf(text) {
  const m = /^([\d.]+)([KMGT]?B)$/.exec(text ?? '');
  return m ? Number(m[1]) * UNITS[m[2]] : 0;
}

/** wrk prints times as `52.92ms`, `1.20s`, `830.00us`. */
function msOf(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (!m) return Number.NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2]];
}

/** Runs wrk with two threads against `url`. */
export function wrk(url, { connections, seconds }) {
  const result = spawnSync(
    'wrk',
    ['-t2', `-c${connections}`, `-d${seconds}s`, `--timeout`, `${WRK_TIMEOUT_S}s`, '--latency', url],
    { encoding: 'utf8' },
  );
  if (result.error) throw new Error(`wrk: ${result.error.message} (apt-get install wrk)`);
  const out = result.stdout;
  const value = (re) => re.exec(out)?.[1];
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(value(/Requests\/sec:\s+([\d.]+)/) ?? 0),
    requests: Number(value(/(\d+) requests in/) ?? 0),
    bytes: bytesOf(value(/requests in [\d.]+\w+, (\S+) read/)),
    p50Ms: msOf(value(/\s50%\s+(\S+)/)),
    p99Ms: msOf(value(/\s99%\s+(\S+)/)),
    timeouts: socket ? Number(socket[4]) : 0,
    socketErrors: socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0,
    non2xx: Number(value(/Non-2xx or 3xx responses: (\d+)/) ?? 0),
  };
}
