import { describe, expect, it } from 'vitest';
import { isBlankPeer, parsePeerLine, peersToRows, rowsToPeers } from './peer-lines.js';

let id = 0;
const nextId = () => ++id;
const rows = (...texts: string[]) => texts.map((text) => ({ id: nextId(), text }));

describe('peer lines (spec 002 §5 "Peer line")', () => {
  it('reads host:port, the port an integer that may be missing', () => {
    expect(parsePeerLine('edge1.example.com:8080')).toEqual({ host: 'edge1.example.com', port: 8080 });
    expect(parsePeerLine(' edge2 ')).toEqual({ host: 'edge2' });
    expect(parsePeerLine('edge3:')).toEqual({ host: 'edge3' });
    expect(parsePeerLine('edge4:80x')).toEqual({ host: 'edge4', port: 80 });
    expect(parsePeerLine('edge5:abc')).toEqual({ host: 'edge5' });
  });

  it('a line with an emptied hostname names no peer', () => {
    expect(isBlankPeer({ id: 1, text: '' })).toBe(true);
    expect(isBlankPeer({ id: 1, text: ':8080' })).toBe(true);
    expect(isBlankPeer({ id: 1, text: 'a' })).toBe(false);
  });

  it('saves the lines as name → {name, port, position} in list order, null when none is left', () => {
    expect(rowsToPeers(rows('b:81', '', 'a'))).toEqual({
      b: { name: 'b', port: 81, position: 0 },
      a: { name: 'a', position: 1 },
    });
    expect(rowsToPeers(rows('', ':80'))).toBeNull();
    expect(rowsToPeers(rows('a:1', 'a:2'))).toEqual({ a: { name: 'a', port: 1, position: 0 } });
  });

  it('shows the config peers in position order and round-trips them', () => {
    const peers = { z: { name: 'z', port: 80, position: 1 }, y: { name: 'y', position: 0 } };
    const lines = peersToRows(peers, nextId);
    expect(lines.map((row) => row.text)).toEqual(['y', 'z:80']);
    expect(rowsToPeers(lines)).toEqual({
      y: { name: 'y', position: 0 },
      z: { name: 'z', port: 80, position: 1 },
    });
  });
});
