import type { Config } from '@sluice/api';
import { hideInText, redactSecrets } from '../http/redact.js';
import { type BundleFile, tarGz } from './tar-gz.js';

/** How far back the server log in a bundle reaches. */
export const BUNDLE_LOG_HOURS = 3;

export interface BundleSources {
  config: () => Config;
  /** The live view: config and every measured figure (stream, server, Pulse state). */
  snapshot: () => Record<string, unknown>;
  /** Server info without the admin token. */
  serverInfo: () => Record<string, unknown>;
  recentLog: (sinceMs: number) => string[];
  /** The console's error reports kept on disk (ErrorReportLog.stored: flushed, then read from its files). */
  errorReports: () => Promise<unknown[]>;
}

export interface Bundle {
  name: string;
  bytes: Buffer;
  createdAt: number;
}

const json = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The diagnostics bundle of POST sendlogs: the config with every secret of http/secret-fields.ts
 * hidden (the login credentials left out whole), the live figures likewise, the last hours of the
 * server log and the console's error reports (urls in them with their passwords and tokens hidden).
 * No raw config text: its comments may quote a password.
 */
export async function buildBundle(
  sources: BundleSources,
  comment: string,
  now = Date.now(),
): Promise<Bundle> {
  const files: BundleFile[] = [
    { name: 'comment.txt', data: Buffer.from(`${comment}\n`) },
    { name: 'config.json', data: json(redactSecrets(sources.config() as Record<string, unknown>)) },
    { name: 'stats.json', data: json(redactSecrets(sources.snapshot())) },
    { name: 'server.json', data: json(sources.serverInfo()) },
    {
      name: 'server.log',
      data: Buffer.from(
        sources
          .recentLog(now - BUNDLE_LOG_HOURS * 3600_000)
          .map(hideInText)
          .join(''),
      ),
    },
  ];
  const reports = JSON.stringify(await sources.errorReports(), null, 2);
  files.push({ name: 'error-reports.json', data: Buffer.from(`${hideInText(reports)}\n`) });
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  return { name: `sluice-diagnostics-${stamp}.tar.gz`, bytes: tarGz(files, now), createdAt: now };
}
