import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readErrorReports } from '../src/http/error-report-reader.js';
import { basicAuth, minimalConfig, type RunningServer, startServer } from './harness.js';

const VIEW = { login: 'viewer', password: 'view-pw' };
const viewer = basicAuth(VIEW.login, VIEW.password);

describe('console error reports read back (GET error/reports)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config: `${minimalConfig}view_auth ${VIEW.login} ${VIEW.password};\n` });
  });
  afterAll(() => server.cleanup());

  const reports = async (authorization?: string) => {
    const answer = await server.api('/flussonic/api/error/reports?limit=10', {
      headers: authorization ? { authorization } : {},
    });
    return {
      status: answer.status,
      body: (await answer.json()) as { reports?: { report: { message: string } }[] },
    };
  };

  it('gives the operator what the console posted, after a restart too; view-only callers are refused', async () => {
    const posted = await server.api('/flussonic/api/error/store', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: viewer },
      body: JSON.stringify([
        { type: 'error', message: 'TypeError: first' },
        { type: 'error', message: 'TypeError: second' },
      ]),
    });
    expect(posted.status).toBe(200);
    // Read as soon as answered: the call waits for what was posted to be on disk.
    const now = await reports();
    expect(now.status).toBe(200);
    expect(now.body.reports!.map((r) => r.report.message)).toEqual(['TypeError: first', 'TypeError: second']);
    expect((await reports(viewer)).status).toBe(403);

    await server.restart();
    const after = await reports();
    expect(after.body.reports!.map((r) => r.report.message)).toEqual([
      'TypeError: first',
      'TypeError: second',
    ]);
    // The reader the diagnostics bundle uses reads the same file.
    const direct = await readErrorReports(server.configPath, 1);
    expect(direct.map((r) => (r.report as { message: string }).message)).toEqual(['TypeError: second']);
  });
});
