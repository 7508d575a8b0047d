import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UploadFailed, ticketOf } from './support-upload.js';

describe("a support server's answer (ticketOf)", () => {
  it('reads {ticket}, {id} and plain text', () => {
    expect(ticketOf('{"ticket":"T-9"}')).toBe('T-9');
    expect(ticketOf('{"id":42}')).toBe('42');
    expect(ticketOf(' SUP-1 \n')).toBe('SUP-1');
    expect(() => ticketOf('{"ok":true}')).toThrow(UploadFailed);
  });

  it('any answer gives a short ticket or UploadFailed, never another error', () => {
    const answer = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.json(),
      fc.jsonValue().map((ticket) => JSON.stringify({ ticket })),
    );
    fc.assert(
      fc.property(answer, (text) => {
        try {
          const ticket = ticketOf(text);
          expect(ticket.length).toBeGreaterThan(0);
          expect(ticket.length).toBeLessThanOrEqual(200);
        } catch (error) {
          expect(error).toBeInstanceOf(UploadFailed);
        }
      }),
      { numRuns: 10_000 },
    );
  });
});
