import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HeldRequests } from './llhls-holds.js';

/** What a hold listens to on a response: its 'close' (the client left). */
const response = () => new EventEmitter() as unknown as ServerResponse;

describe('held LL-HLS requests', () => {
  it('answers a hold once met, and one whose time ran out as not met', async () => {
    const holds = new HeldRequests(10);
    let ready = false;
    const met = holds.hold(() => ready, 60_000, response())!;
    const late = holds.hold(() => false, 20, response())!;
    ready = true;
    holds.update();
    expect(await met).toBe(true);
    expect(await late).toBe(false);
    expect(holds.size).toBe(0);
  });

  it('holds at most its cap at once, and lets go of a client that left', async () => {
    const holds = new HeldRequests(2);
    const left = response();
    const first = holds.hold(() => false, 60_000, left)!;
    holds.hold(() => false, 60_000, response());
    expect(holds.hold(() => false, 60_000, response())).toBeUndefined();
    left.emit('close');
    expect(await first).toBe(false);
    expect(holds.hold(() => false, 60_000, response())).toBeDefined();
    holds.clear();
    expect(holds.size).toBe(0);
  });
});
