import type { EventClient } from './events-hub.js';

/**
 * Named event topics for `subscribe:{topic}` / `unsubscribe:{topic}` on the events websocket
 * (spec 000 §7). A module publishes to a topic; every socket subscribed to it receives the event.
 * Only declared topics can be subscribed to, so a typo gets an error instead of silence.
 */
export class TopicBus {
  private readonly subscribers = new Map<string, Set<EventClient>>();

  constructor(readonly topics: readonly string[]) {
    for (const topic of topics) this.subscribers.set(topic, new Set());
  }

  /** Subscribes `client`; returns the unsubscribe function, or an error message for an unknown topic. */
  subscribe(topic: string, client: EventClient): (() => void) | string {
    const set = this.subscribers.get(topic);
    if (!set) return `unknown topic: ${topic.slice(0, 100)}; topics are ${this.topics.join(', ')}`;
    set.add(client);
    return () => set.delete(client);
  }

  publish(topic: string, event: Record<string, unknown>): void {
    for (const client of this.subscribers.get(topic) ?? []) client.send(event);
  }
}
