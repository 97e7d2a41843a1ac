import type { RedisClient } from "./connection.ts";
import { luaScript } from "./scripts.ts";

// A chat's turn given back: the release's scripts, with the writes and the done mark they may
// carry, and what their answer means (the design: chat-turns.ts).

/**
 * KEYS: queue, alive, turn. ARGV: update id, token, the new epoch, its ttl ms, "1" when the
 * update entered the queue, the lease ms. Leaves the queue and frees our turn; a turn freed moves
 * the epoch on (the chat's state may have changed) by writing a value no release wrote before,
 * marked when the turn was (someone may be queued).
 *
 * A turn we lost (our lease ran out) is not ours to free, but the epoch still moves when nobody
 * holds the turn (absent or freed): the update's done mark (chat-order.ts) is written with this
 * release, and a read of it made before now must not be taken as current by the next taker.
 * Written so, it is marked (a waiter's mark may have gone with the lapsed lease). A turn someone
 * else holds is left to them. Returns 1 when the turn was ours.
 *
 * The usual release (our turn, unmarked) is one `SET … GET`: the freed value is written and the
 * value it replaced tells whether that was right. Otherwise a second `SET`, in the same script
 * (nobody sees the first): the marked freed value, or another holder's token put back. Its
 * remaining lease is not known then, so it gets a whole lease (ARGV[6]): at most one lease more
 * for a holder that died, once per lost release (a stall of ours beyond the lease).
 */
const LEAVE = `
if ARGV[5] == '1' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
local cur = redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[4], 'GET')
if cur == ARGV[2] then return 1 end
local mine = cur == ARGV[2] .. '|q'
if mine or (not cur) or string.sub(cur, 1, 2) == 'f:' then
  redis.call('SET', KEYS[3], ARGV[3] .. '|q', 'PX', ARGV[4])
else
  redis.call('SET', KEYS[3], cur, 'PX', ARGV[6])
end
if mine then return 1 end
return 0
`;
const leaveTurn = luaScript<"queue" | "alive" | "turn", number>(
  "raLeaveChatTurn5",
  ["queue", "alive", "turn"],
  LEAVE,
);

/**
 * `leaveTurn` that first writes the update's done mark (KEYS[4], ARGV[7] for ARGV[8] seconds),
 * in the same script: no take can run between the mark and the epoch's move, so a taker whose
 * early read saw the epoch before the move (and the update not done) never finds that epoch
 * current after the mark, not even when our lease lapsed. One node only (the mark's key is in
 * another Cluster slot): a Cluster writes the mark before the release instead (chat-order.ts).
 */
const leaveTurnMarked = luaScript<"queue" | "alive" | "turn" | "done", number>(
  "raLeaveChatTurnMarked2",
  ["queue", "alive", "turn", "done"],
  `redis.call('SET', KEYS[4], ARGV[7], 'EX', ARGV[8])${LEAVE}`,
);

/**
 * The update's writes that `leaveTurnWriting` carries (create-bot.ts: the conversation state and
 * the idle deadline): one of these commands on `key` with `args`.
 */
export interface TurnWrite {
  command: (typeof CARRIED)[number];
  key: string;
  args: ReadonlyArray<string | number | Buffer>;
}

/** What `leaveTurnWriting` may run: what the bot carries (create-bot.ts), nothing else. */
const CARRIED = ["set", "del", "zadd"] as const;

/**
 * The release that first runs the update's own writes (ARGV[10...]: for each, the command, the
 * key, the count of its arguments and the arguments), then its done mark (KEYS[4]: ARGV[7] for
 * ARGV[8] seconds, '' for none), so that the state the update saves, its mark and the turn's
 * release reach Redis in one round trip and one socket write instead of one each; and nothing can
 * run between them (a taker sees all or none). ARGV[1..6] as `leaveTurn`'s, ARGV[9] the count of
 * writes. The write keys are arguments, not KEYS: one node only, like the mark (a Cluster writes
 * them itself). Only while the turn is ours (our token, marked or not):
 *  - ioredis resends a command left unanswered by a reconnect: a release that ran and whose reply
 *    was lost runs again, maybe after later updates of the chat saved newer state (an order placed,
 *    its idle deadline disarmed). The turn then holds another value, and no write is made again:
 *    `our freed value` (ARGV[3], never written before this release) says it is this release that
 *    ran ("again"; "unmarked" when it ran without its mark: a write failed); anything else, that
 *    the turn was lost (a lease that lapsed, "lost": not written, the update not done).
 *  - a write that fails (an error reply) stops the writes after it and the mark (the update is
 *    not done), and is returned; the turn is freed all the same, as a failed update's turn always
 *    was. A command not in CARRIED is refused before any write.
 * The turn is freed first: inside the script nobody sees the order, and its `SET … GET` tells whose
 * it was (no command more than the writes, the mark and `leaveTurn`'s own).
 * Returns { 1 when the turn was ours, the failed write's error or '', ran | again | unmarked | lost }.
 */
const leaveTurnWriting = luaScript<
  "queue" | "alive" | "turn" | "done",
  [number, string, ReleaseOutcome]
>(
  "raLeaveChatTurnWriting2",
  ["queue", "alive", "turn", "done"],
  `
local cur = redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[4], 'GET')
if cur ~= ARGV[2] and cur ~= ARGV[2] .. '|q' then
  if cur == ARGV[3] or cur == ARGV[3] .. '|q' then
    if cur ~= ARGV[3] then redis.call('SET', KEYS[3], cur, 'PX', ARGV[4]) end
    if ARGV[7] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[7] then return {1, '', 'unmarked'} end
    return {1, '', 'again'}
  end
  if ARGV[5] == '1' then
    redis.call('ZREM', KEYS[1], ARGV[1])
    redis.call('HDEL', KEYS[2], ARGV[1])
  end
  if (not cur) or string.sub(cur, 1, 2) == 'f:' then
    redis.call('SET', KEYS[3], ARGV[3] .. '|q', 'PX', ARGV[4])
  else
    redis.call('SET', KEYS[3], cur, 'PX', ARGV[6])
  end
  return {0, '', 'lost'}
end
local allowed = {${CARRIED.map((c) => `${c} = true`).join(", ")}}
local a, failed = 10, nil
for i = 1, tonumber(ARGV[9]) do
  if not allowed[string.lower(ARGV[a])] then failed = 'refused command ' .. ARGV[a] end
  a = a + 3 + tonumber(ARGV[a + 2])
end
a = 10
for i = 1, tonumber(ARGV[9]) do
  local argc = tonumber(ARGV[a + 2])
  if not failed then
    local r = redis.pcall(ARGV[a], ARGV[a + 1], unpack(ARGV, a + 3, a + 2 + argc))
    if type(r) == 'table' and r.err then failed = r.err end
  end
  a = a + 3 + argc
end
if not failed and ARGV[7] ~= '' then redis.call('SET', KEYS[4], ARGV[7], 'EX', ARGV[8]) end
if ARGV[5] == '1' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
if cur ~= ARGV[2] then redis.call('SET', KEYS[3], ARGV[3] .. '|q', 'PX', ARGV[4]) end
return {1, failed or '', 'ran'}
`,
);

/** How a release that carried writes went (`leaveTurnWriting`). */
type ReleaseOutcome = "ran" | "again" | "unmarked" | "lost";

/**
 * A release's carried writes not made, or made in part (a failed write, a lost turn, a resent
 * release that had failed): the script answered, so the update is known not to be done. Any other
 * error of a release (the connection's) leaves that unknown (chat-order.ts asks the done mark).
 */
export class CarriedWritesFailed extends Error {
  override name = "CarriedWritesFailed";
}

/** The arguments `leaveTurnWriting` takes for `writes` (from its ARGV[9]). */
function writeArgs(writes: readonly TurnWrite[]): Array<string | number | Buffer> {
  const out: Array<string | number | Buffer> = [writes.length];
  for (const w of writes) out.push(w.command, w.key, w.args.length, ...w.args);
  return out;
}

/**
 * The release's script for `mark` and `writes`: { 1 when the turn was ours, a failed write's error
 * or '', how the writes went ("ran" with none) }.
 */
export async function leave(
  redis: RedisClient,
  keys: { queue: string; alive: string; turn: string },
  args: readonly [number, string, string, number, string, number],
  mark: MarkOnRelease | undefined,
  writes: readonly TurnWrite[],
): Promise<[number, string, ReleaseOutcome]> {
  if (writes.length > 0) {
    const [ours, failed, outcome] = await leaveTurnWriting.run(
      redis,
      { ...keys, done: mark?.key ?? keys.turn },
      ...args,
      mark?.value ?? "",
      mark?.ttlSeconds ?? 0,
      ...writeArgs(writes),
    );
    return [Number(ours), String(failed), outcome];
  }
  if (mark === undefined) return [Number(await leaveTurn.run(redis, keys, ...args)), "", "ran"];
  const ours = await leaveTurnMarked.run(
    redis,
    { ...keys, done: mark.key },
    ...args,
    mark.value,
    mark.ttlSeconds,
  );
  return [Number(ours), "", "ran"];
}

/** The error for a release whose carried writes were not all made (none when they were). */
export function carriedFailure(
  failed: string,
  outcome: ReleaseOutcome,
): CarriedWritesFailed | undefined {
  if (failed)
    return new CarriedWritesFailed(`a write released with the chat's turn failed: ${failed}`);
  if (outcome === "lost")
    return new CarriedWritesFailed("the chat's turn was lost before its release: writes not made");
  if (outcome === "unmarked")
    return new CarriedWritesFailed(
      "a resent release had run without its done mark (a write failed)",
    );
  return undefined;
}

/** A key to set with the release, in the same script (the update's done mark). */
export interface MarkOnRelease {
  key: string;
  value: string;
  ttlSeconds: number;
}
