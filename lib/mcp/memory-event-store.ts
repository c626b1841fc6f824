// Resumability for Streamable HTTP: the last messages of each stream, kept in memory
// (bounded), so a client that reconnects with Last-Event-ID gets what it missed.
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export function createMemoryEventStore(maxEvents = 500): EventStore {
  const events: Array<{ id: string; streamId: string; message: JSONRPCMessage }> = [];
  let seq = 0;
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${++seq}`;
      events.push({ id, streamId, message });
      if (events.length > maxEvents) events.splice(0, events.length - maxEvents);
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.find((e) => e.id === eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((e) => e.id === lastEventId);
      const streamId = at >= 0 ? events[at].streamId : lastEventId.slice(0, lastEventId.lastIndexOf('_'));
      for (const e of events.slice(at + 1)) if (e.streamId === streamId) await send(e.id, e.message);
      return streamId;
    },
  };
}
