import { execFileSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, minimalConfig, startServer, type RunningServer } from './harness.js';
import { modifyConfig } from './media-helpers.js';

const VIEW = basicAuth('viewer', 'view-only-pw');
const schedules = [
  {
    name: 'morning',
    slots: [
      { from: '08:00:00', duration: 30 },
      { from: '09:00:00', duration: 15 },
    ],
    files: [{ name: 'ads/spots/cola.mp4', weight: 2 }],
  },
  { name: 'night', slots: [{ from: '23:59:50', duration: 5 }], files: [] },
];

let server: RunningServer;
let vodDir: string;

const save = (body: unknown, authorization = basicAuth()) =>
  server.api('/flussonic/api/save_ad_schedules', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify(body),
  });
const fetched = async () => (await server.api('/flussonic/api/fetch_ad_schedules')).json();

beforeAll(async () => {
  server = await startServer({ config: `${minimalConfig}view_auth viewer view-only-pw;\n` });
  vodDir = join(server.dir, 'vod');
  await mkdir(join(vodDir, 'spots'), { recursive: true });
  // A real (one second) mp4, as an operator's ad file would be.
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=10'],
    ...['-t', '1', '-pix_fmt', 'yuv420p', join(vodDir, 'spots', 'cola.mp4')],
  ]);
  await modifyConfig(server, { vods: { ads: { prefix: 'ads', urls: [{ url: vodDir }] } } });
});
afterAll(() => server?.cleanup());

describe('save_ad_schedules / fetch_ad_schedules', () => {
  it('saves schedules into the config file and the live config, and fetches them back', async () => {
    const answer = await save(schedules);
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(await fetched()).toEqual(schedules);
    const text = await readFile(server.configPath, 'utf8');
    expect(text).toContain(
      'ad_schedule morning {\n  slot 08:00:00 30;\n  slot 09:00:00 15;\n  file ads/spots/cola.mp4 2;\n}',
    );
    const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
      ad_schedules: unknown;
    };
    expect(config.ad_schedules).toEqual(schedules);
  });

  const one = (over: Record<string, unknown>) => [{ ...schedules[0], ...over }];
  it.each([
    ['a blank name', one({ name: '' }), 'Ad schedule name is required and should have 1 character at least.'],
    [
      'a name used twice',
      [schedules[0], { ...schedules[1], name: 'morning' }],
      'Ad schedule name should be unique.',
    ],
    ['a start not HH:mm:ss', one({ slots: [{ from: '8:00', duration: 5 }] }), 'Slot format is HH:mm:ss'],
    [
      'a start used twice',
      one({
        slots: [
          { from: '08:00:00', duration: 5 },
          { from: '08:00:00', duration: 5 },
        ],
      }),
      'Time slot start time should be unique',
    ],
    ['a zero duration', one({ slots: [{ from: '08:00:00', duration: 0 }] }), 'Should be greater, than 0'],
    [
      'a zero weight',
      one({ files: [{ name: 'ads/spots/cola.mp4', weight: 0 }] }),
      'Should be greater, than 0',
    ],
    [
      'a slot running into the next one',
      one({
        slots: [
          { from: '08:00:00', duration: 61 },
          { from: '08:01:00', duration: 5 },
        ],
      }),
      'schedule "morning", slot 1 (From): Time slot overlaps the next one, which starts at 08:01:00',
    ],
    ['a missing file', one({ files: [{ name: 'ads/spots/gone.mp4', weight: 1 }] }), 'is not found'],
    [
      'a file of no VOD location',
      one({ files: [{ name: 'nowhere/cola.mp4', weight: 1 }] }),
      'in no VOD location',
    ],
    ['a path out of the folder', one({ files: [{ name: 'ads/../x.mp4', weight: 1 }] }), 'ads/../x.mp4'],
    ['not a list', { name: 'x' }, 'the body must be a list of ad schedules'],
  ])('refuses %s with 400 naming it, changing nothing', async (_what, body, message) => {
    const answer = await save(body);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toContain(message);
    expect(await fetched()).toEqual(schedules);
  });

  it('lets a view-only login fetch but not save, and nobody without credentials', async () => {
    const viewed = await server.api('/flussonic/api/fetch_ad_schedules', {
      headers: { authorization: VIEW },
    });
    expect(viewed.status).toBe(200);
    expect(await viewed.json()).toEqual(schedules);
    expect((await save([], VIEW)).status).toBe(403);
    const anonymous = await fetch(`${server.url}/flussonic/api/fetch_ad_schedules`);
    expect(anonymous.status).toBe(401);
    expect(await fetched()).toEqual(schedules);
  });

  it('refuses the same rules through modify_config and save_raw_config', async () => {
    const bad = [{ name: 'x', slots: [{ from: '25:00:00', duration: 5 }], files: [] }];
    const modified = await server.api('/flussonic/api/modify_config', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ad_schedules: bad }),
    });
    expect(modified.status).toBe(400);
    expect(await modified.text()).toContain('schedule \\"x\\", slot 1 (From): Slot format is HH:mm:ss');
    const text = await readFile(server.configPath, 'utf8');
    const raw = await server.api('/flussonic/api/save_raw_config', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `${text}ad_schedule y {\n  slot 08:00:00 0;\n}\n`,
    });
    expect(raw.status).toBe(400);
    expect(await raw.text()).toContain('Should be greater, than 0');
    expect(await readFile(server.configPath, 'utf8')).toBe(text);
    expect(await fetched()).toEqual(schedules);
  });

  it('keeps them across a restart', async () => {
    await server.restart();
    expect(await fetched()).toEqual(schedules);
  });

  it('refuses a save while no VOD location exists (spec 002 §6)', async () => {
    await modifyConfig(server, { vods: null });
    const answer = await save([{ name: 'x', slots: [], files: [] }]);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toContain('need a VOD location');
    expect(await fetched()).toEqual(schedules);
  });
});
