import type { PublishRequest, PublishSink } from '../ingest/rtmp/rtmp-server.js';

export type PublishAnswer = PublishSink | { refused: string };
export type SlotHandler = (request: PublishRequest) => PublishAnswer;

/**
 * Where publishers can go: a stream's publish source opens a slot under the stream's name while it
 * runs, and the RTMP listener's publishes are handed to the slot of the stream they name.
 */
export class PublishSlots {
  private readonly slots = new Map<string, SlotHandler>();

  open(name: string, handler: SlotHandler): () => void {
    this.slots.set(name, handler);
    return () => {
      if (this.slots.get(name) === handler) this.slots.delete(name);
    };
  }

  get(name: string): SlotHandler | undefined {
    return this.slots.get(name);
  }
}
