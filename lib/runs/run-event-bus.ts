// Live delivery of run events and control messages. In-process listeners get the event
// object at once; other app instances hear a Postgres NOTIFY and read the event from
// the database (which always has it before it is announced). Its LISTEN connection also
// carries other channels (`listenTo`: the API token cache hears revocations on it), and
// `onLive` tells whether notices are being heard right now. Notices carry ids only
// (pg_notify refuses payloads of 8,000 bytes or more): what they announce is in the
// database, and every reader also looks there on a timer, so a missed notice delays,
// never loses. LISTEN needs a session of its own: behind a transaction-mode pooler give
// it a direct URL (DATABASE_DIRECT_URL).
import 'server-only';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { errorContext, runsLog } from './runs-log';
import { workerHealth } from './worker-health';

export type StoredRunEvent = { seq: number; type: string; data: Record<string, unknown>; createdAt: string };

/** a notice that a control of the run was stored (control-run.ts): ids only, never the content */
export type RunControl = { kind: 'cancel' } | { kind: 'turn' };

type Message =
  | { kind: 'event'; runId: string; event: StoredRunEvent; origin: string }
  | { kind: 'announce'; runId: string; seq: number; origin: string }
  | { kind: 'control'; runId: string; control: RunControl; origin: string }
  | { kind: 'queued'; origin: string }
  /** this process asking itself whether its LISTEN connection still hears (see checkLiveness) */
  | { kind: 'probe'; seq: number; origin: string };

const CHANNEL = 'skillyard_runs';
/** how often the LISTEN connection proves it still hears, and how long a probe may take */
const PROBE_EVERY_MS = 5_000;
const ORIGIN = `${process.pid}-${Math.random().toString(36).slice(2)}`;

class RunEventBus {
  private emitter = new EventEmitter();
  private listener: pg.Client | null = null;
  private notifier: pg.Pool | null = null;
  private connecting: Promise<void> | null = null;
  /** other channels heard on the LISTEN connection, and who hears them */
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private readonly liveHandlers = new Set<(live: boolean) => void>();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /**
   * Connects LISTEN/NOTIFY (idempotent); without it the bus still works in-process.
   * `listenUrl` (default `databaseUrl`): a direct, unpooled connection for LISTEN.
   */
  connect(databaseUrl: string, listenUrl = databaseUrl): Promise<void> {
    this.connecting ??= (async () => {
      this.closed = false;
      this.notifier = new pg.Pool({ connectionString: databaseUrl, max: 2 });
      // an idle client dropping is not a failure of any request, but it is worth a line
      this.notifier.on('error', (err) => runsLog.warn('notify connection dropped', errorContext(err)));
      await this.listen(listenUrl);
    })();
    return this.connecting;
  }

  private closed = false;
  private notifyFailures = 0;
  private lastNotifyLog = 0;

  /**
   * LISTENs on a connection of its own, and reconnects when that connection drops. The
   * client is installed only once every LISTEN succeeded: until then a failure is the
   * caller's to retry (retryLater), never the 'error' handler's as well. It is live (see
   * `live`) once it heard its own first probe.
   */
  private async listen(databaseUrl: string): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true, application_name: `skillyard-listen-${process.pid}` });
    const retry = () => {
      if (this.closed || this.listener !== client) return;
      this.listener = null;
      this.setLive(false);
      client.end().catch((err) => runsLog.warn('closing the LISTEN connection failed', errorContext(err)));
      runsLog.warn('LISTEN connection dropped; reconnecting', { reconnectInMs: 1_000 });
      setTimeout(() => !this.closed && this.listen(databaseUrl).catch(retryLater), 1_000).unref();
    };
    const retryLater = (err: unknown) => {
      workerHealth.failed('listen', err, { reconnectInMs: 5_000 });
      setTimeout(() => !this.closed && this.listen(databaseUrl).catch(retryLater), 5_000).unref();
    };
    client.on('notification', (n) => {
      if (this.listener !== client) return;
      if (n.channel !== CHANNEL) {
        for (const handler of this.channels.get(n.channel) ?? []) handler(n.payload ?? '');
        return;
      }
      if (!n.payload) return;
      let msg: Message;
      try {
        msg = JSON.parse(n.payload) as Message;
      } catch (err) {
        runsLog.error('unreadable notification', { bytes: n.payload.length, ...errorContext(err) });
        return;
      }
      if (msg.kind === 'probe') {
        if (msg.origin === ORIGIN) this.heardProbe(msg.seq);
        return;
      }
      if (msg.origin === ORIGIN) return;
      this.deliver(msg);
    });
    client.on('error', retry);
    client.on('end', retry);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // a channel added while this loop awaits is visited by it too (Map iteration)
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      client.end().catch(() => {});
      return;
    }
    this.listener = client;
    workerHealth.ok('listen');
    this.probeTimer ??= setInterval(() => this.checkLiveness(), PROBE_EVERY_MS);
    this.probeTimer.unref?.();
    this.sendProbe();
  }

  private probeTimer: NodeJS.Timeout | null = null;
  private probeSeq = 0;
  private probeSentAt = 0;
  private probeHeard = 0;

  private sendProbe() {
    this.probeSeq++;
    this.probeSentAt = Date.now();
    this.notify({ kind: 'probe', seq: this.probeSeq, origin: ORIGIN });
  }

  private heardProbe(seq: number) {
    this.probeHeard = Math.max(this.probeHeard, seq);
    if (this.probeHeard === this.probeSeq && this.listener) this.setLive(true);
  }

  /**
   * Every PROBE_EVERY_MS: a connection can die without telling (a half-open TCP
   * connection, a pooler that drops LISTEN), so the process NOTIFYs itself and counts the
   * connection dead (not live, reconnected) when the last probe went unheard.
   */
  checkLiveness(now = Date.now()): void {
    const client = this.listener;
    if (!client || this.closed) return;
    if (this.probeHeard < this.probeSeq && now - this.probeSentAt >= PROBE_EVERY_MS) {
      runsLog.warn('LISTEN connection hears nothing; reconnecting', { unheardForMs: now - this.probeSentAt });
      this.setLive(false);
      client.emit('end'); // the retry path: forget the client, end it, connect anew
      return;
    }
    if (this.probeHeard === this.probeSeq) this.sendProbe();
  }

  private isLive = false;

  /** True while the LISTEN connection is up and heard its last probe: notices sent now are heard. */
  get live(): boolean {
    return this.isLive;
  }

  private setLive(live: boolean) {
    if (this.isLive === live) return;
    this.isLive = live;
    for (const handler of this.liveHandlers) handler(live);
  }

  /** Hears NOTIFYs on `channel` (a lowercase name) from now on, also after reconnecting. */
  async listenTo(channel: string, handler: (payload: string) => void): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel) || channel === CHANNEL) throw new Error(`not a channel of its own: ${channel}`);
    const known = this.channels.get(channel);
    if (known) return void known.add(handler);
    this.channels.set(channel, new Set([handler]));
    await this.listener?.query(`LISTEN ${channel}`);
  }

  /** `handler(live)` now and whenever the LISTEN connection comes up or drops. */
  onLive(handler: (live: boolean) => void): () => void {
    this.liveHandlers.add(handler);
    handler(this.live);
    return () => this.liveHandlers.delete(handler);
  }

  private deliver(msg: Message) {
    if (msg.kind === 'event' || msg.kind === 'announce') this.emitter.emit(`run:${msg.runId}`, msg);
    else if (msg.kind === 'control') this.emitter.emit(`control:${msg.runId}`, msg.control);
    else if (msg.kind === 'queued') this.emitter.emit('queued');
  }

  private notify(msg: Message) {
    if (!this.notifier) return;
    this.notifier
      .query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(msg)])
      .catch((err) => {
        // other instances miss this message until they poll (events: their next catch-up;
        // queued runs: the 2 s poll; control: the run's own checks), so it must be seen
        this.notifyFailures++;
        const now = Date.now();
        if (now - this.lastNotifyLog >= 5_000) {
          // one line per 5 s at most: an outage would otherwise log once per event
          workerHealth.failed('notify', err, { kind: msg.kind, failuresSinceLastLine: this.notifyFailures });
          this.lastNotifyLog = now;
          this.notifyFailures = 0;
        }
      })
      .then((res) => {
        if (res && this.notifyFailures === 0) workerHealth.ok('notify');
      });
  }

  /** Delivers an event to this process's subscribers at once (it may not be stored yet). */
  publishLocal(runId: string, event: StoredRunEvent) {
    this.emitter.emit(`run:${runId}`, { kind: 'event', runId, event, origin: ORIGIN });
  }

  /**
   * Events up to `seq` are stored: subscribers here that missed some (they subscribed
   * while those were in flight) and other instances can now read them.
   */
  announceStored(runId: string, seq: number) {
    this.emitter.emit(`run:${runId}`, { kind: 'announce', runId, seq, origin: ORIGIN });
    this.notify({ kind: 'announce', runId, seq, origin: ORIGIN });
  }

  /** `onEvent` gets the event itself (same process) or just its seq (another instance). */
  subscribe(runId: string, onMessage: (msg: { event?: StoredRunEvent; seq: number }) => void): () => void {
    const handler = (msg: Message) => {
      if (msg.kind === 'event') onMessage({ event: msg.event, seq: msg.event.seq });
      else if (msg.kind === 'announce') onMessage({ seq: msg.seq });
    };
    this.emitter.on(`run:${runId}`, handler);
    return () => this.emitter.off(`run:${runId}`, handler);
  }

  /** live subscribers of a run's events in this process (tests check that none leak) */
  subscriberCount(runId: string): number {
    return this.emitter.listenerCount(`run:${runId}`);
  }

  sendControl(runId: string, control: RunControl) {
    this.emitter.emit(`control:${runId}`, control);
    this.notify({ kind: 'control', runId, control, origin: ORIGIN });
  }

  onControl(runId: string, handler: (control: RunControl) => void): () => void {
    this.emitter.on(`control:${runId}`, handler);
    return () => this.emitter.off(`control:${runId}`, handler);
  }

  announceQueued() {
    this.emitter.emit('queued');
    this.notify({ kind: 'queued', origin: ORIGIN });
  }

  onQueued(handler: () => void): () => void {
    this.emitter.on('queued', handler);
    return () => this.emitter.off('queued', handler);
  }

  async close() {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
    const listener = this.listener;
    this.listener = null;
    this.setLive(false);
    await listener?.end().catch((err) => runsLog.warn('closing the LISTEN connection failed', errorContext(err)));
    await this.notifier?.end().catch((err) => runsLog.warn('closing the notify pool failed', errorContext(err)));
    this.listener = null;
    this.notifier = null;
    this.connecting = null;
  }
}

const globalForBus = globalThis as unknown as { skillyardRunBus?: RunEventBus };

export function runEventBus(): RunEventBus {
  globalForBus.skillyardRunBus ??= new RunEventBus();
  return globalForBus.skillyardRunBus;
}

export type { RunEventBus };
