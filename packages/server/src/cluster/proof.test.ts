import { describe, expect, it } from 'vitest';
import {
  CLUSTER_PROOF_HEADER,
  CLUSTER_PROOF_WINDOW_MS,
  NonceMemory,
  signClusterRequest,
  verifyClusterRequest,
} from './proof.js';

const PATH = '/flussonic/api/cluster/streams';
const NOW = 1_800_000_000_000;
const withHeader = (proof: string, url = PATH) => ({ url, headers: { [CLUSTER_PROOF_HEADER]: proof } });

describe('cluster key proof', () => {
  it('accepts a proof signed with the same key for the same path, and never carries the key', () => {
    const proof = signClusterRequest('s3cret-key', PATH, NOW);
    expect(proof).not.toContain('s3cret-key');
    expect(verifyClusterRequest(withHeader(proof), 's3cret-key', NOW + 1000)).toEqual({ ok: true });
  });

  it('accepts the proof in the query (?cluster=) for clients that can only set a URL', () => {
    const proof = signClusterRequest('k', '/news/mpegts', NOW);
    const request = { url: `/news/mpegts?cluster=${proof}&token=x`, headers: {} };
    expect(verifyClusterRequest(request, 'k', NOW)).toEqual({ ok: true });
  });

  it('refuses another key, another path, a missing or malformed proof, and a server without a key', () => {
    const proof = signClusterRequest('right', PATH, NOW);
    expect(verifyClusterRequest(withHeader(proof), 'wrong', NOW)).toEqual({
      ok: false,
      reason: 'wrong cluster key',
    });
    expect(verifyClusterRequest(withHeader(proof, '/other/mpegts'), 'right', NOW)).toEqual({
      ok: false,
      reason: 'wrong cluster key',
    });
    expect(verifyClusterRequest({ url: PATH, headers: {} }, 'right', NOW)).toEqual({
      ok: false,
      reason: 'cluster key proof required',
    });
    expect(verifyClusterRequest(withHeader('right'), 'right', NOW)).toEqual({
      ok: false,
      reason: 'malformed cluster key proof',
    });
    expect(verifyClusterRequest(withHeader(proof), undefined, NOW)).toEqual({
      ok: false,
      reason: 'this server has no cluster_key',
    });
  });

  it('refuses a proof older or newer than the window', () => {
    const proof = signClusterRequest('k', PATH, NOW);
    expect(verifyClusterRequest(withHeader(proof), 'k', NOW + CLUSTER_PROOF_WINDOW_MS)).toEqual({ ok: true });
    const late = verifyClusterRequest(withHeader(proof), 'k', NOW + CLUSTER_PROOF_WINDOW_MS + 1);
    expect(late.ok).toBe(false);
    expect(verifyClusterRequest(withHeader(proof), 'k', NOW - CLUSTER_PROOF_WINDOW_MS - 1).ok).toBe(false);
  });

  it('refuses a replay inside the window when the caller keeps a nonce memory', () => {
    const seen = new NonceMemory();
    const proof = signClusterRequest('k', PATH, NOW);
    expect(verifyClusterRequest(withHeader(proof), 'k', NOW, seen)).toEqual({ ok: true });
    expect(verifyClusterRequest(withHeader(proof), 'k', NOW + 5, seen)).toEqual({
      ok: false,
      reason: 'cluster key proof already used',
    });
    // A fresh proof (new nonce) from the same peer passes.
    expect(verifyClusterRequest(withHeader(signClusterRequest('k', PATH, NOW)), 'k', NOW, seen)).toEqual({
      ok: true,
    });
  });

  it('keeps its nonce memory bounded', () => {
    const memory = new NonceMemory(4);
    for (let i = 0; i < 10; i++) expect(memory.remember(`n${i}`, NOW + 1000, NOW)).toBe(true);
    expect(memory.remember('n9', NOW + 1000, NOW)).toBe(false);
  });
});
