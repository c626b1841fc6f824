// A refusal for a caller already past one of its limits (its rate limit, its cap of requests
// or streams in progress: what the front door refuses) waits a moment before it is sent (a
// tarpit). A flooding client that comes straight back after each 429 otherwise makes as
// many requests as the server can refuse (bench:abuse: 25,000 in 20 s from 300 loops, each
// parsed and answered on the event loop every other caller waits on); held for
// SKILLYARD_REFUSAL_DELAY_MS, it makes at most (its open requests) / delay a second. A
// caller under its limit is never delayed; a held refusal costs a timer and the socket the
// client holds anyway, and past MAX_HELD of them refusals go out at once.
import 'server-only';
import type http from 'node:http';
import { httpLimits } from '../limits';

/** refusals held at once in this process, at most */
export const MAX_HELD_REFUSALS = 4096;

const shared = globalThis as unknown as { skillyardHeldRefusals?: { count: number } };
const held = (shared.skillyardHeldRefusals ??= { count: 0 });

/** Calls `answer` after the refusal delay (at once when it is 0 or too many are held); never after the client went away. */
export function answerAfterDelay(res: http.ServerResponse, answer: () => void, delayMs: number = httpLimits().refusalDelayMs): void {
  if (delayMs <= 0 || held.count >= MAX_HELD_REFUSALS) return answer();
  held.count++;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    held.count--;
    clearTimeout(timer);
    res.off('close', gone);
  };
  const gone = () => finish();
  const timer = setTimeout(() => {
    finish();
    if (!res.destroyed && !res.writableEnded) answer();
  }, delayMs);
  res.once('close', gone);
}

/** Only for tests: refusals held now. */
export const heldRefusals = () => held.count;
