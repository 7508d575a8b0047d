import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePeerAnswer } from './peer-poll.js';

const figures = {
  hostname: 'edge-2',
  instance: 'abc123',
  ports: { http: 8080 },
  cpu_usage: 12.5,
  memory_usage: 40,
  client_count: 3,
  stream_count: 2,
  input_bitrate: 100,
  output_bitrate: 200,
  version: '0.1.0',
  uptime: 60,
};
const valid = JSON.stringify({
  server: figures,
  streams_rev: '0123456789abcdef',
  streams: [
    { name: 'a', alive: true },
    { name: 'b', alive: false, ingest: true },
  ],
});

/** Any failure is an Error with a short message in an operator's words; nothing else escapes. */
function outcome(status: number, text: string): 'answer' | 'error' {
  try {
    const answer = parsePeerAnswer(status, text);
    expect(typeof answer.server.hostname).toBe('string');
    expect(typeof answer.streams_rev).toBe('string');
    return 'answer';
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message.length).toBeGreaterThan(0);
    expect(message.length).toBeLessThan(300);
    return 'error';
  }
}

describe('parsePeerAnswer (what a peer sends back to a poll)', () => {
  it('reads a good answer, and names each refusal', () => {
    expect(parsePeerAnswer(200, valid).streams?.map((s) => s.name)).toEqual(['a', 'b']);
    expect(() => parsePeerAnswer(403, '{"error":"wrong cluster key"}')).toThrow(/^wrong cluster key$/);
    expect(() => parsePeerAnswer(403, '{"error":"this server has no cluster_key"}')).toThrow(
      'refused: this server has no cluster_key',
    );
    expect(() => parsePeerAnswer(404, '')).toThrow('not a Sluice server');
    expect(() => parsePeerAnswer(500, '{"error":"boom"}')).toThrow('HTTP 500: boom');
    expect(() => parsePeerAnswer(200, '<html>')).toThrow('not JSON');
    expect(() => parsePeerAnswer(200, '{"server":{}}')).toThrow('unexpected figures');
    expect(() =>
      parsePeerAnswer(200, JSON.stringify({ server: { ...figures, cpu_usage: -1 }, streams_rev: 'x' })),
    ).toThrow('unexpected figures');
  });

  it('never throws anything but an Error, whatever the bytes (10^4 cases)', () => {
    const mutated = fc
      .tuple(fc.nat({ max: valid.length }), fc.nat({ max: 20 }), fc.string({ maxLength: 20 }))
      .map(([at, cut, insert]) => valid.slice(0, at) + insert + valid.slice(at + cut));
    const jsonish = fc.jsonValue().map((v) => JSON.stringify(v));
    const wrapped = fc.jsonValue().map((v) => JSON.stringify({ server: v, streams_rev: 'r', streams: v }));
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }),
        fc.oneof(mutated, jsonish, wrapped, fc.string(), fc.string({ unit: 'binary' })),
        (status, text) => {
          outcome(status, text);
        },
      ),
      { numRuns: 10_000 },
    );
  });
});
