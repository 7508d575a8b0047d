import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSelfSigned } from '../src/tls/self-signed.js';
import { freePort, waitFor } from './harness.js';

/**
 * Debian's `pebble` (the ACME test CA, scripts/bootstrap.sh) on ephemeral ports. It validates HTTP-01
 * challenges at `http://<domain>:<httpPort>/…`, so `httpPort` is the Sluice server's HTTP port;
 * `localhost` resolves from /etc/hosts, and names that don't resolve fail their order. Its HTTPS
 * directory uses a throwaway certificate; `caFile` is what the server trusts for it
 * (SLUICE_ACME_CA_FILE), nothing else.
 */
export interface Pebble {
  directoryUrl: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** pebble's HTTPS certificate, made before the server starts so the server can be told to trust it. */
export interface PebbleCa {
  dir: string;
  caFile: string;
  keyFile: string;
}

export async function makePebbleCa(): Promise<PebbleCa> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-pebble-'));
  const tls = makeSelfSigned('localhost');
  const caFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  await writeFile(caFile, tls.certPem);
  await writeFile(keyFile, tls.keyPem);
  return { dir, caFile, keyFile };
}

export async function startPebble(options: {
  ca: PebbleCa;
  port: number;
  httpPort: number;
}): Promise<Pebble> {
  const { dir, caFile, keyFile } = options.ca;
  const caPem = await readFile(caFile, 'utf8');
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${options.port}`,
      managementListenAddress: `127.0.0.1:${await freePort()}`,
      certificate: caFile,
      privateKey: keyFile,
      httpPort: options.httpPort,
      tlsPort: await freePort(),
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
    },
  };
  await writeFile(join(dir, 'pebble.json'), JSON.stringify(config));
  let output = '';
  const child: ChildProcess = spawn('pebble', ['-config', join(dir, 'pebble.json')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Validate at once, and never refuse a good nonce: the test is about Sluice, not retries.
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const directoryUrl = `https://localhost:${options.port}/dir`;
  await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`pebble exited with ${child.exitCode}:\n${output}`);
    return new Promise<boolean>((resolve) =>
      get(directoryUrl, { ca: caPem }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      }).on('error', () => resolve(false)),
    );
  });
  return {
    directoryUrl,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
