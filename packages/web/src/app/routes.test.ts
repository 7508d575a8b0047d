import { describe, expect, it, vi } from 'vitest';

// The table imports page components; only names and paths matter here.
vi.mock('../features/config-editor/ConfigEditorTab.js', () => ({ ConfigEditorTab: () => null }));
vi.mock('../features/global-config/GlobalConfigPage.js', () => ({ GlobalConfigPage: () => null }));
vi.mock('../features/global-config/SettingsTab.js', () => ({ SettingsTab: () => null }));
vi.mock('../features/media-list/MediaPage.js', () => ({ MediaPage: () => null }));
vi.mock('./NotFoundPage.js', () => ({ NotFoundPage: () => null }));
vi.mock('./Shell.js', () => ({ Shell: () => null }));

const { pathTo } = await import('./routes.js');

describe('route table (spec 000 §2)', () => {
  it('names every route of the spec', () => {
    expect(pathTo('root')).toBe('/');
    for (const name of ['pulse', 'chassis', 'iptv', 'watcher', 'logupload', 'auth', 'ad_injector', 'dvrs']) {
      expect(pathTo(name)).toBe(`/${name}`);
    }
    expect(pathTo('global-config')).toBe('/config');
    expect(pathTo('config-editor')).toBe('/config/editor');
    expect(pathTo('cluster')).toBe('/cluster');
    expect(pathTo('cluster-peer', { name: 'p1' })).toBe('/cluster/peer/p1');
  });

  it('builds item paths with URL-encoded names and sub-pages', () => {
    expect(pathTo('stream-item', { mediaName: 'live/a b' })).toBe('/standalone/live%2Fa%20b');
    expect(pathTo('stream-item/overview', { mediaName: 'x' })).toBe('/standalone/x');
    expect(pathTo('stream-item/input-source', { mediaName: 'x', sourceIndex: '2' })).toBe(
      '/standalone/x/input/2',
    );
    expect(pathTo('vod-item/tree', { mediaName: 'v', number: '3' })).toBe('/vod/v/tree/3');
    expect(pathTo('published-item/dvr', { mediaName: 'p' })).toBe('/published/p/dvr');
  });
});
