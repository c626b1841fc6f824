// MCP sessions recorded in Postgres (McpSession), so that any instance behind a balancer
// can serve a session another opened (http-sessions.ts revives it). Rows idle past the
// session idle time are ignored and swept.
import 'server-only';
import type { Db } from '../db';
import type { McpSessionStore } from '../mcp';

export function createPgMcpSessionStore(db: Db): McpSessionStore {
  let lastSweep = 0;
  return {
    async save(s) {
      await db.mcpSession.create({ data: s });
    },
    async find(id, idleMs) {
      const now = Date.now();
      if (now - lastSweep > 10 * 60_000) {
        lastSweep = now;
        void db.mcpSession.deleteMany({ where: { lastSeenAt: { lt: new Date(now - idleMs) } } }).catch(() => {});
      }
      return db.mcpSession.findFirst({
        where: { id, lastSeenAt: { gte: new Date(now - idleMs) } },
        select: { principal: true, selection: true, protocolVersion: true },
      });
    },
    async touch(id) {
      await db.mcpSession.updateMany({ where: { id }, data: { lastSeenAt: new Date() } });
    },
    async remove(id) {
      await db.mcpSession.deleteMany({ where: { id } });
    },
  };
}
