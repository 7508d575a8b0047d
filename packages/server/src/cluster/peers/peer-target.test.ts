import { describe, expect, it } from 'vitest';
import { peerTarget } from './peer-directory.js';

describe('peerTarget', () => {
  it('splits a HOST:PORT key written through the API, so two servers on one host can be peers', () => {
    expect(peerTarget('127.0.0.1:8081', undefined)).toEqual({ host: '127.0.0.1', port: 8081 });
    expect(peerTarget('[::1]:8082', undefined)).toEqual({ host: '[::1]', port: 8082 });
  });

  it('keeps a host with its configured port, and port 80 when none is given', () => {
    expect(peerTarget('edge.example', 8090)).toEqual({ host: 'edge.example', port: 8090 });
    expect(peerTarget('edge.example', undefined)).toEqual({ host: 'edge.example', port: 80 });
    expect(peerTarget('::1', undefined)).toEqual({ host: '::1', port: 80 });
  });
});
