// The shared-memory lane between the pool and a sandbox worker (see lane.ts). The pool
// makes an anonymous shared file (native/shm-lane.c: memfd), maps it, and hands it to the
// worker as fd 4; the worker maps it too. It holds two byte rings (shm-ring.ts): pool ->
// worker first, then worker -> pool. A side that writes while its peer polls costs a
// memory copy; while the peer sleeps, one doorbell (an empty frame on the pipe) wakes it.
// A writer whose frame does not fit keeps the rest in order and writes it when the reader
// rings back that it made room. Frames the pipe still carries (a dying worker's `fatal`)
// are delivered like ring frames.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DOORBELL, FrameReader, MAX_FRAME_BYTES, writeFrame } from './frame';
import type { Lane, LaneEnds } from './lane';
import { RingBroken, ringBytes, ShmRing } from './shm-ring';

/** data bytes of each ring (a frame larger than this goes through in pieces) */
export const LANE_RING_BYTES = 256 * 1024;
export const laneBytes = (ringCapacity = LANE_RING_BYTES): number => 2 * ringBytes(ringCapacity);
/** the worker's descriptor for the shared file */
export const LANE_FD = 4;
/** bytes a side keeps for a peer that does not read them (more than the largest frame) */
const MAX_BACKLOG_BYTES = MAX_FRAME_BYTES + LANE_RING_BYTES;

export type LaneAddon = { memfd(bytes: number): number; map(fd: number, bytes: number): ArrayBuffer; source(): string };

export type LaneHelper = { file: string; addon: LaneAddon };

const loaded = new Map<string, LaneAddon | null>();

/** The native helper for shared-memory lanes under the project root (scripts/build-lane.mjs builds it). */
export const laneAddonFile = (root: string): string => path.join(/*turbopackIgnore: true*/ root, 'native', 'build', 'shm-lane.node');

/**
 * The helper the pool uses for `choice` (its option, else SKILLYARD_SANDBOX_LANE): null
 * means pipes. A helper built from other sources than native/shm-lane.c beside it (a
 * stale build after a pull), or one whose shared files can change size, is not used.
 */
export function laneHelper(root: string, choice: string | undefined): LaneHelper | null {
  if (choice === 'pipe') return null;
  const file = laneAddonFile(root);
  const addon = loadLaneAddon(file);
  if (!addon) return null;
  const refuse = (why: string) => {
    process.emitWarning(`${file} ${why}: sandbox workers use pipes; run \`npm run build:lane\``);
    return null;
  };
  const source = path.join(/*turbopackIgnore: true*/ root, 'native', 'shm-lane.c');
  // a deployment that ships only the built helper has no source to compare with
  if (existsSync(source) && addon.source() !== createHash('sha256').update(readFileSync(source)).digest('hex')) {
    return refuse('was built from other sources than native/shm-lane.c');
  }
  const problem = sealProblem(addon);
  return problem ? refuse(problem) : { file, addon };
}

/** Why the helper's shared files are unusable (null: they are made and refuse to change size; see native/shm-lane.c). */
function sealProblem(addon: LaneAddon): string | null {
  let fd: number;
  try {
    fd = addon.memfd(laneBytes());
  } catch (error) {
    return `cannot make shared files here (${error instanceof Error ? error.message : String(error)})`;
  }
  try {
    ftruncateSync(fd, 0);
    return 'makes shared files a worker could shrink';
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A shared file for a new worker's lane, mapped here (null: that worker talks over its pipe). */
export function laneMemory(addon: LaneAddon): { fd: number; memory: ArrayBuffer } | null {
  let fd = -1;
  try {
    fd = addon.memfd(laneBytes());
    return { fd, memory: addon.map(fd, laneBytes()) };
  } catch {
    if (fd >= 0) closeSync(fd);
    return null; // out of memory or descriptors
  }
}

/** The native helper at `file`, or null when it is missing or does not load here. */
export function loadLaneAddon(file: string): LaneAddon | null {
  if (!loaded.has(file)) {
    let addon: LaneAddon | null = null;
    if (process.platform === 'linux') {
      try {
        const module = { exports: {} as LaneAddon };
        process.dlopen(module, file);
        const { memfd, map, source } = module.exports;
        if (typeof memfd === 'function' && typeof map === 'function' && typeof source === 'function') addon = module.exports;
      } catch {
        addon = null;
      }
    }
    loaded.set(file, addon);
  }
  return loaded.get(file)!;
}

export class ShmLane implements Lane {
  private readonly out: ShmRing;
  private readonly in: ShmRing;
  private readonly frames: FrameReader;
  private readonly pipeFrames: FrameReader;
  /** bytes that did not fit in `out` yet, in order */
  private backlog: Buffer[] = [];
  private backlogBytes = 0;
  private reading = false;
  private readAgain = false;
  private broken = false;
  /** a doorbell was answered in this event-loop turn; another was heard since */
  private answeredThisTurn = false;
  private rangAgain = false;
  /** ring bytes to the frame reader (one function for every read) */
  private readonly deliver = (chunk: Buffer) => this.frames.push(chunk);

  constructor(
    memory: ArrayBuffer,
    side: 'pool' | 'worker',
    private readonly ends: LaneEnds,
    ringCapacity = LANE_RING_BYTES,
    private readonly maxBacklogBytes = MAX_BACKLOG_BYTES,
  ) {
    const first = new ShmRing(memory, 0, ringCapacity);
    const second = new ShmRing(memory, ringBytes(ringCapacity), ringCapacity);
    [this.out, this.in] = side === 'pool' ? [first, second] : [second, first];
    const onBroken = (why: string) => this.fail(why);
    this.frames = new FrameReader(ends.onFrame, onBroken);
    this.pipeFrames = new FrameReader(ends.onFrame, onBroken, () => this.onDoorbell());
  }

  send(frame: Buffer): void {
    if (this.broken) return;
    this.backlog.push(frame);
    this.backlogBytes += frame.length;
    this.flush();
    // a peer that stopped reading must not make this side hold without bound what it sends
    if (this.backlogBytes > this.maxBacklogBytes) this.fail(`no reads while ${this.backlogBytes} bytes waited`);
  }

  poll(): boolean {
    if (this.backlog.length > 0) this.flush();
    return this.readIn() > 0;
  }

  polling(on: boolean): void {
    this.in.setAwake(on);
  }

  fromPipe(chunk: Buffer): void {
    this.pipeFrames.push(chunk);
  }

  drain(): void {
    this.readIn();
  }

  /**
   * A doorbell is answered at once by a look at the ring (a busy web process must not make
   * a worker's answer wait for the rest of its event-loop turn), but one turn answers at
   * most two: doorbells heard after the first wait for one more look at the end of the
   * turn. A peer that floods doorbells buys at most two ring reads (each at most the
   * ring's size) per turn, not one per doorbell (libuv reads up to 32 chunks of 64 KiB a
   * turn, 16,384 doorbells each).
   */
  private onDoorbell(): void {
    if (this.answeredThisTurn) {
      this.rangAgain = true;
      return;
    }
    this.answeredThisTurn = true;
    this.answerDoorbell();
    setImmediate(() => {
      this.answeredThisTurn = false;
      if (!this.rangAgain) return;
      this.rangAgain = false;
      this.answerDoorbell();
    });
  }

  private answerDoorbell(): void {
    // clear first: a write after this rings again, a write before it is read below
    this.in.clearBell();
    this.readIn();
    if (this.backlog.length > 0) this.flush();
  }

  private readIn(): number {
    if (this.broken) return 0;
    if (this.reading) {
      // a look asked for while one is delivering (no handler does this today): the outer
      // look reads once more, so nothing written after its snapshot is left behind
      this.readAgain = true;
      return 0;
    }
    this.reading = true;
    let total = 0;
    try {
      do {
        this.readAgain = false;
        total += this.in.read(this.deliver);
      } while (this.readAgain && !this.broken);
    } catch (error) {
      if (!(error instanceof RingBroken)) throw error;
      this.fail(error.message);
      return 0;
    } finally {
      this.reading = false;
    }
    if (total > 0 && this.in.writerWaits()) this.ring();
    return total;
  }

  private flush(): void {
    let wrote = 0;
    let flagged = false;
    try {
      while (this.backlog.length > 0) {
        const next = this.backlog[0];
        const n = this.out.write(next);
        wrote += n;
        this.backlogBytes -= n;
        if (n === next.length) {
          this.backlog.shift();
          continue;
        }
        if (n > 0) this.backlog[0] = next.subarray(n);
        if (flagged) break;
        // full: ask the reader to ring back, then try once more (it may have made room
        // before it could see the flag)
        this.out.setWaiting(true);
        flagged = true;
      }
    } catch (error) {
      if (!(error instanceof RingBroken)) throw error;
      return this.fail(error.message);
    }
    if (this.backlog.length === 0 && flagged) this.out.setWaiting(false);
    if (wrote > 0 && this.out.shouldRing()) this.ring();
  }

  private ring(): void {
    const { channel } = this.ends;
    // a doorbell still queued behind a full pipe will do (a peer that stops reading its
    // pipe must not make this side queue one per frame)
    if (channel.destroyed || channel.writableLength > 0) return;
    writeFrame(channel, this.ends.fd(), DOORBELL);
  }

  private fail(why: string): void {
    if (this.broken) return;
    this.broken = true;
    this.backlog = [];
    this.backlogBytes = 0;
    this.ends.onBroken(why);
  }
}
