import { describe, expect, it } from 'vitest';
import { LiveView } from '../live/live-view.js';
import { FullMessageCache } from './full-message-cache.js';

function viewWith(revision: string) {
  const view = new LiveView();
  view.set(['config_revision'], revision);
  view.set(['streams'], { cam: { password: 'pw-secret', title: 'Cam', stats: { bitrate: 1 } } });
  return view;
}

const messageOf = (text: string) =>
  JSON.parse(text) as { event: string; data: Record<string, unknown>; revision: unknown };

describe('the shared current_config message', () => {
  it('is built once for the sockets asking together; a later socket catches up through its delta', () => {
    const view = viewWith('r1');
    const cache = new FullMessageCache(view, 60_000);
    const first = cache.get(true);
    view.set(['streams', 'cam', 'stats', 'bitrate'], 2);
    const second = cache.get(true);
    // The same text and version: the stats changed since are in this socket's first delta.
    expect(second.text).toBe(first.text);
    expect(second.version).toBe(first.version);
    expect(messageOf(second.text).data).toMatchObject({ streams: { cam: { stats: { bitrate: 1 } } } });
    const delta = view.deltaSince(second.version);
    expect(delta?.delta).toEqual({ streams: { cam: { stats: { bitrate: 2 } } } });
    cache.drop();
  });

  it('is built again after a config change: the message carries the new revision and config', () => {
    const view = viewWith('r1');
    const cache = new FullMessageCache(view, 60_000);
    cache.get(true);
    view.set(['streams', 'cam', 'title'], 'Renamed');
    view.set(['config_revision'], 'r2');
    const after = messageOf(cache.get(true).text);
    expect(after.revision).toBe('r2');
    expect(after.data).toMatchObject({ streams: { cam: { title: 'Renamed' } } });
    cache.drop();
  });

  it('gives a view-only socket no secret, even after an editor socket built the full message', () => {
    const view = viewWith('r1');
    const cache = new FullMessageCache(view, 60_000);
    expect(cache.get(true).text).toContain('pw-secret');
    const redacted = cache.get(false);
    expect(redacted.text).not.toContain('pw-secret');
    expect(messageOf(redacted.text).data).toMatchObject({ streams: { cam: { title: 'Cam' } } });
    cache.drop();
  });

  it('is built again once older than its age, and lets the change log go', () => {
    const view = viewWith('r1');
    // An age below zero: every later call is past it.
    const cache = new FullMessageCache(view, -1);
    const first = cache.get(true);
    view.set(['streams', 'cam', 'stats', 'bitrate'], 3);
    const second = cache.get(true);
    expect(second.version).toBeGreaterThan(first.version);
    expect(messageOf(second.text).data).toMatchObject({ streams: { cam: { stats: { bitrate: 3 } } } });
    cache.drop();
  });
});
