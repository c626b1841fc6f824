// In-memory EventBus: topics are scoped to the caller; publish returns the subscriptions the
// kernel then delivers to (by invoking each subscriber's tool ref through the pipeline).

import { randomUUID } from 'node:crypto';
import type { EventBus, EventRecord, Subscription } from './types';

export function createMemoryEventBus(): EventBus & { events: Array<EventRecord & { callerId: string }> } {
  const subs: Subscription[] = [];
  const events: Array<EventRecord & { callerId: string }> = [];
  return {
    events,
    async publish(scope, topic, data) {
      events.push({ topic, data, publishedBy: { skill: scope.skill, tool: scope.tool }, at: new Date(), callerId: scope.callerId });
      return subs.filter((s) => s.callerId === scope.callerId && s.topic === topic);
    },
    async subscribe(scope, topic, ref) {
      const sub: Subscription = { id: randomUUID(), topic, ref, skill: scope.skill, callerId: scope.callerId };
      subs.push(sub);
      return sub;
    },
    async unsubscribe(scope, id) {
      const i = subs.findIndex((s) => s.id === id && s.callerId === scope.callerId && s.skill === scope.skill);
      if (i < 0) return false;
      subs.splice(i, 1);
      return true;
    },
  };
}
