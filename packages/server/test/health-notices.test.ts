import { spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmod, mkdir, mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig } from './media-helpers.js';
import { makeSelfSigned } from '../src/tls/self-signed.js';

const GB = 1024 ** 3;
const REAL_FFMPEG = spawnSync('sh', ['-c', 'command -v ffmpeg']).stdout.toString().trim();

/**
 * Header notices (spec 000 server stats `status`, error_* keys) for faults an operator must see:
 * each appears within seconds of the fault and goes when it is fixed, with no restart.
 */
describe('health notices in the header', () => {
  let server: RunningServer;
  let dir: string;
  /** Where the server looks for ffmpeg (SLUICE_FFMPEG): missing at start, then a script, then ffmpeg. */
  let ffmpeg: string;
  let configText: string;
  /** The disk of the config's folder: the threshold is set 1 GB above its use at start. */
  let disk: { usedBytes: number; usableBytes: number };

  const status = async () =>
    (
      (await (await server.api('/flussonic/api/read_config')).json()) as {
        stats: { status: Record<string, string> };
      }
    ).stats.status;
  const noticeOf = (key: string) => waitFor(async () => (await status())[key], 30_000);
  const goneOf = (key: string) => waitFor(async () => (await status())[key] === undefined, 30_000);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-health-'));
    ffmpeg = join(dir, 'bin', 'ffmpeg');
    // A file where the session log's folder should be: it can't be made until the file goes.
    await writeFile(join(dir, 'blocker'), 'not a folder');
    const s = await statfs(dir);
    disk = {
      usedBytes: (s.blocks - s.bfree) * s.bsize,
      usableBytes: (s.blocks - s.bfree + s.bavail) * s.bsize,
    };
    const threshold = ((disk.usedBytes + GB) / disk.usableBytes) * 100;
    configText = `${minimalConfig}session_log ${join(dir, 'blocker', 'sessions')};\n`;
    server = await startServer({
      dir,
      config: configText,
      env: {
        SLUICE_FFMPEG: ffmpeg,
        SLUICE_DISK_FULL_PERCENT: threshold.toFixed(6),
        // The product's timers, shortened rather than waited out (docs/api.md): the disk check
        // (3 s), the SRT port retry (5 s), the look for a missing ffmpeg (2 s) and the crash
        // backoff (1, 2, 4, 8 s…), each still the only way its notice comes or goes.
        SLUICE_DISK_CHECK_MS: '500',
        SLUICE_SRT_PORT_RETRY_MS: '500',
        SLUICE_FFMPEG_PROBE_MS: '300',
        SLUICE_FFMPEG_RESTART_MAX_MS: '300',
      },
    });
    configText = configText.replaceAll('{http}', String(server.port));
  });
  afterAll(() => server.cleanup());

  it('a config reload (SIGHUP) refused is a notice until a reload succeeds', async () => {
    await writeFile(server.configPath, `${configText}streams {\n`);
    server.process.kill('SIGHUP');
    expect(await noticeOf('error_config_reload')).toMatch(
      /^Config reload \(SIGHUP\) refused, the running config is kept: .+/,
    );
    await writeFile(server.configPath, `${configText}# fixed\n`);
    server.process.kill('SIGHUP');
    await goneOf('error_config_reload');
  });

  it('a session log that cannot be opened is a notice until its folder can be made', async () => {
    expect(await noticeOf('error_session_log')).toContain(join(dir, 'blocker', 'sessions'));
    await rm(join(dir, 'blocker'));
    await goneOf('error_session_log');
  });

  it('ffmpeg missing, then crashing in a loop, each a notice until fixed', async () => {
    await modifyConfig(server, {
      streams: { first: { urls: [{ url: 'test://?size=160x90' }], static: true } },
    });
    expect(await noticeOf('error_ffmpeg_missing')).toContain(`ffmpeg can't be started (${ffmpeg})`);
    await modifyConfig(server, { streams: { first: null } });
    // Installed, but it dies on SIGSEGV as soon as it runs: found within seconds, then a crash loop.
    await mkdir(join(dir, 'bin'));
    await writeFile(ffmpeg, '#!/bin/sh\nkill -SEGV $$\n');
    await chmod(ffmpeg, 0o755);
    await goneOf('error_ffmpeg_missing');
    await modifyConfig(server, {
      streams: { second: { urls: [{ url: 'test://?size=160x90' }], static: true } },
    });
    // Restarts 0.3 s apart (SLUICE_FFMPEG_RESTART_MAX_MS): a crash or two more may come before the
    // notice is read. That it appears at the third exactly is ffmpeg-health.test.ts's.
    const crashing = await noticeOf('error_ffmpeg_crashing');
    expect(crashing).toMatch(/^ffmpeg keeps crashing \(.*, \d+ times in a row\): .*SIGSEGV/);
    expect(Number(/(\d+) times in a row/.exec(crashing)?.[1])).toBeGreaterThanOrEqual(3);
    // A working ffmpeg: the next restart writes output and the notice goes.
    await writeFile(ffmpeg, `#!/bin/sh\nexec ${REAL_FFMPEG} "$@"\n`);
    await goneOf('error_ffmpeg_crashing');
  });

  it('an SRT port held by another program is a notice until it is freed', async () => {
    const holder = createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve));
    const port = holder.address().port;
    await modifyConfig(server, {
      streams: { srt_in: { urls: [{ url: 'publish://' }], srt_publish: { port } } },
    });
    expect(await noticeOf(`error_listen_srt_${port}`)).toMatch(
      new RegExp(`^Can't listen on SRT port ${port} \\(srt_publish of stream srt_in\\): .*EADDRINUSE`),
    );
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await goneOf(`error_listen_srt_${port}`);
    await modifyConfig(server, { streams: { srt_in: null } });
  });

  it('a certificate ending within 14 days is a notice until it is replaced', async () => {
    const install = async (pair: { certPem: string; keyPem: string }) => {
      await writeFile(join(dir, 'tls', 'server.key'), pair.keyPem);
      await writeFile(join(dir, 'tls', 'server.crt'), pair.certPem);
    };
    // Made 3647 days ago, valid 3650: it ends in 3 days.
    await install(makeSelfSigned('soon.example', new Date(Date.now() - 3647 * 86_400_000)));
    expect(await noticeOf('error_certificate_expiry')).toMatch(
      /^The TLS certificate for .*soon\.example.* expires in 3 days/,
    );
    await install(makeSelfSigned('fresh.example'));
    await goneOf('error_certificate_expiry');
  });

  it('a disk past the threshold is a notice until space is freed', async () => {
    expect((await status()).error_disk_full).toBeUndefined();
    // 2 GB allocated at once (no writing): the disk is now 1 GB past the threshold.
    const filler = join(dir, 'filler');
    expect(spawnSync('fallocate', ['-l', String(2 * GB), filler]).status).toBe(0);
    try {
      expect(await noticeOf('error_disk_full')).toMatch(new RegExp(`^Disk almost full .*${dir}`));
    } finally {
      await rm(filler, { force: true });
    }
    await goneOf('error_disk_full');
  });
});
