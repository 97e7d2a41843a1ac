import { randomUUID } from "node:crypto";
import type { RedisClient } from "./connection.ts";
import { keyspace } from "./keyspace.ts";
import { luaScript } from "./scripts.ts";

/**
 * One chat's updates one at a time and in update_id order, across every instance on one Redis.
 *
 * grammY's sequentialize orders a chat's updates within one process only. Behind a balancer the
 * next update of a chat may reach another instance while the first is still being handled (the
 * webhook is answered after a few seconds, so Telegram sends the next one): both then read the
 * same conversation state, and a double tap gave two receipts, a quickly typed amount was read as
 * the number. So each chat has a queue in Redis:
 *  - a sorted set of the update ids waiting for the chat, scored by update_id (Telegram numbers a
 *    bot's updates in the order they happened, and hands a chat's next update out only after the
 *    previous one was answered, so every earlier update is queued before a later one arrives);
 *  - a hash: update id -> until when its waiter is alive (each poll extends it), so a waiter whose
 *    instance died leaves the queue by itself;
 *  - the turn: a lease naming the update being handled, renewed while it works, so an instance that
 *    dies mid-update frees the chat within `leaseMs`.
 * An update takes the turn only when it is the lowest update id alive in the queue and nobody
 * holds the turn; the decision is one script, with Redis's clock. Nothing ever waits for two
 * chats, so there is no deadlock; a waiter gives up waiting after `maxWaitMs` (the caller decides
 * what then).
 */
export interface ChatTurns {
  /** Waits for the chat's turn; resolves with the held turn (release it!) or "timeout". */
  /**
   * `read`: keys to read in the same script as the take, once the turn is taken (one Redis node
   * only; `HeldTurn.read`): what the update reads as it starts, current by construction.
   */
  take(
    chat: string,
    updateId: number,
    opts?: { signal?: AbortSignal; read?: readonly string[] },
  ): Promise<HeldTurn>;
  /** The update id whose handler holds the chat's turn now, if any (one GET). */
  holder(chat: string): Promise<number | undefined>;
}

export interface HeldTurn {
  /** False when the wait ran out (`maxWaitMs`): the update goes on without the turn. */
  held: boolean;
  /**
   * The chat's epoch when the turn was taken: an opaque value of the turn key (the value the last
   * release wrote, never written before; "0" for none). A read of the chat's state made before
   * the take holds only if it saw the same value (nobody finished an update in between). A holder
   * that died after its take and before its release leaves the key to expire, so a read older
   * than one lease can match again: the reads that compare are made just before the take.
   */
  epoch: string;
  /** How many polls it took (1: the turn was free at once). */
  tries: number;
  /**
   * The values of the take's `read` keys (null: no such key), read right after the turn was taken
   * in the same script; undefined when none were asked for or the wait ran out.
   */
  read?: Array<Buffer | null>;
  /**
   * Frees the turn; `mark`, when given, is set in the same script (one Redis node only), and so
   * are `writes` (one node only), in their order, before the mark and the release, and only while
   * the turn is ours: a failed write leaves the rest and the mark unwritten, frees the turn all
   * the same, and rejects (`CarriedWritesFailed`), as does a turn lost before the release (its
   * writes not made). A release resent after a reconnect makes no write again.
   */
  release(mark?: MarkOnRelease, writes?: readonly TurnWrite[]): Promise<void>;
}

export interface ChatTurnSettings {
  /**
   * The turn's lease; renewed every third of it while held. Default 5 s. **Every instance on one
   * Redis must use the same value**: a take tried as free or a lost release that finds another
   * holder's token puts it back with its own lease (the holder's remaining one is gone with the
   * `SET … GET`; a `PTTL` first would cost every take and release a command). A shorter lease here
   * than the holder's would let its token expire before its next renewal, and the chat's turn be
   * handed out twice.
   */
  leaseMs?: number;
  /** A waiter not heard from for this long has left the queue. Default 5 s. */
  aliveMs?: number;
  /** Poll interval while waiting (first polls faster). Default 100 ms. */
  pollMs?: number;
  /** The longest wait for a turn. Default 120 s (an execute and its lookups, with margin). */
  maxWaitMs?: number;
}

/**
 * KEYS: queue, alive, turn. ARGV: update id, token, lease ms, alive ms, "1" to try the turn as
 * free, the epoch's ttl ms, the count of keys to read once taken and those keys (one node only:
 * they are arguments, not KEYS). Nil: wait; else { epoch when taken, 1 if the update entered the
 * queue (its leave must take it out), the values read (false for none) }.
 *
 * "Try as free" (this instance freed the chat's turn last, so it is most likely free and
 * unmarked) takes it with one `SET … GET`; the value it replaced tells whether that was right.
 * If not (a turn held, marked or absent), the value is put back in the same script (nobody sees
 * ours), a freed one with the epoch's day, a holder's with a whole lease (its remaining one is not
 * known: at most one lease more for a holder that died, and the instance stops trying so for
 * the chat), and the take goes on as below.
 *
 * The turn key is both the lease and the chat's epoch: our token while held, `f:<unique>` once
 * freed (what the last release wrote, kept a day), absent for a chat never taken (epoch "0").
 * A value ending in `|q` says someone may be queued: a waiter marks the holder's value so when it
 * enters the queue, the holder's release carries the mark into the freed value, and only a taker
 * that leaves nobody queued behind it takes the turn unmarked. So the usual case, a freed turn
 * without the mark, is taken without looking at the queue (three commands with the script's
 * own); an absent turn (never taken, or a holder's lease ran out: the mark went with it) looks
 * at the queue first, as does any marked one. The queue and its alive times are only for updates
 * that have to wait.
 */
const takeTurn = luaScript<"queue" | "alive" | "turn", [string, number] | null>(
  "raTakeChatTurn5",
  ["queue", "alive", "turn"],
  `
local function taken(epoch, queued)
  local n = tonumber(ARGV[7] or '0')
  if n == 0 then return {epoch, queued} end
  local out = redis.call('MGET', unpack(ARGV, 8, 7 + n))
  table.insert(out, 1, queued)
  table.insert(out, 1, epoch)
  return out
end
local holder
if ARGV[5] == '1' then
  holder = redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3], 'GET')
  if holder and string.sub(holder, 1, 2) == 'f:' and string.sub(holder, -2) ~= '|q' then
    return taken(holder, 0)
  end
  if not holder then redis.call('DEL', KEYS[3])
  elseif string.sub(holder, 1, 2) == 'f:' then redis.call('SET', KEYS[3], holder, 'PX', ARGV[6])
  else redis.call('SET', KEYS[3], holder, 'PX', ARGV[3]) end
else
  holder = redis.call('GET', KEYS[3])
end
local marked = holder and string.sub(holder, -2) == '|q'
local free = (not holder) or string.sub(holder, 1, 2) == 'f:'
local epoch = holder or '0'
if free and not marked and (holder or redis.call('EXISTS', KEYS[1]) == 0) then
  redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3])
  return taken(epoch, 0)
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = ARGV[1]
redis.call('ZADD', KEYS[1], tonumber(id), id)
redis.call('HSET', KEYS[2], id, now + tonumber(ARGV[4]))
local keep = tonumber(ARGV[4]) * 4 + tonumber(ARGV[3])
redis.call('PEXPIRE', KEYS[1], keep)
redis.call('PEXPIRE', KEYS[2], keep)
local head = id
for i = 1, 50 do
  head = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if head == id then break end
  local alive = tonumber(redis.call('HGET', KEYS[2], head) or '0')
  if alive > now then break end
  redis.call('ZREM', KEYS[1], head)
  redis.call('HDEL', KEYS[2], head)
end
local mine = holder == ARGV[2] or holder == ARGV[2] .. '|q'
if head ~= id or not (free or mine) then
  if holder and not marked then redis.call('SET', KEYS[3], holder .. '|q', 'KEEPTTL') end
  return false
end
local value = ARGV[2]
if redis.call('ZCARD', KEYS[1]) > 1 then value = value .. '|q' end
redis.call('SET', KEYS[3], value, 'PX', ARGV[3])
return taken(epoch, 1)
`,
);

/** KEYS: turn. ARGV: token, lease ms. Extends our turn, marked or not (nobody else's). */
const renewTurn = luaScript<"turn", number>(
  "raRenewChatTurn",
  ["turn"],
  `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or v == ARGV[1] .. '|q' then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`,
);

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

/** The take's reply: epoch (a Buffer when values were read), queued, the values read. */
type TakeReply = [string | Buffer, number, ...Array<Buffer | null>];

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
async function leave(
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
function carriedFailure(failed: string, outcome: ReleaseOutcome): CarriedWritesFailed | undefined {
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

/**
 * The key whose value a read of the chat's state takes along, to compare with `HeldTurn.epoch`
 * (as a string, "0" for none): the turn key itself.
 */
export const epochKey = (prefix: string, chat: string): string =>
  keyspace(prefix).chatTurn(chat).turn;

/** The epoch outlives by far any read it is compared with (an expired one reads "0"). */
const EPOCH_TTL_MS = 24 * 3600 * 1000;
/** How many chats an instance remembers freeing last (each a few dozen bytes). */
const FREED_KEPT = 50_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

export function redisChatTurns(
  redis: RedisClient,
  prefix: string,
  s: ChatTurnSettings = {},
): ChatTurns {
  const leaseMs = s.leaseMs ?? 5_000;
  const aliveMs = s.aliveMs ?? 5_000;
  const pollMs = s.pollMs ?? 100;
  const maxWaitMs = s.maxWaitMs ?? 120_000;
  const instance = randomUUID();
  // Each release writes an epoch no release wrote before: this instance's id and a count.
  let releases = 0;
  // The chats whose turn this instance freed last (a bounded set, oldest dropped first).
  const freedHere = new Set<string>();
  const rememberFreed = (chat: string) => {
    freedHere.delete(chat);
    freedHere.add(chat);
    if (freedHere.size > FREED_KEPT) {
      const oldest = freedHere.values().next().value;
      if (oldest !== undefined) freedHere.delete(oldest);
    }
  };
  const ks = keyspace(prefix);
  return {
    async holder(chat) {
      const value = await redis.get(ks.chatTurn(chat).turn);
      // A holder's token is `<instance uuid>:<update id>`; a freed turn's value starts with "f:".
      if (value === null || value.startsWith("f:")) return undefined;
      const token = value.endsWith("|q") ? value.slice(0, -2) : value;
      const id = Number(token.slice(token.lastIndexOf(":") + 1));
      return Number.isSafeInteger(id) ? id : undefined;
    },
    async take(chat, updateId, opts = {}) {
      const keys = ks.chatTurn(chat);
      // Our token names the update too: a redelivery of it elsewhere is someone else.
      const token = `${instance}:${updateId}`;
      const giveUpAt = Date.now() + maxWaitMs;
      let tries = 0;
      let taken: TakeReply | null = null;
      // Freed by us last: tried as free at the first poll (one command less), once.
      let asFree = freedHere.delete(chat);
      const read = opts.read ?? [];
      for (;;) {
        tries++;
        const args = [updateId, token, leaseMs, aliveMs, asFree ? "1" : "0", EPOCH_TTL_MS] as const;
        // Binary values read: the reply's bulk strings as Buffers.
        taken =
          read.length === 0
            ? await takeTurn.run(redis, keys, ...args)
            : await takeTurn.runBuffer<TakeReply | null>(
                redis,
                keys,
                ...args,
                read.length,
                ...read,
              );
        asFree = false;
        if (taken !== null || Date.now() > giveUpAt || opts.signal?.aborted) break;
        await sleep(Math.min(pollMs, 10 * tries), opts.signal);
      }
      const held = taken !== null;
      // Only an update taken at the first try without the queue is not in it.
      const queued = !held || tries > 1 || Number(taken?.[1]) === 1;
      const epoch = taken === null ? "" : String(taken[0]);
      const values =
        taken !== null && read.length > 0 ? (taken.slice(2) as Array<Buffer | null>) : undefined;
      const renewal = held
        ? setInterval(
            () => void renewTurn.run(redis, { turn: keys.turn }, token, leaseMs).catch(() => {}),
            Math.max(50, Math.floor(leaseMs / 3)),
          )
        : undefined;
      let released = false;
      return {
        held,
        epoch,
        tries,
        ...(values ? { read: values } : {}),
        async release(mark, writes = []) {
          if (released) return;
          released = true;
          clearInterval(renewal);
          const args = [
            updateId,
            token,
            `f:${instance}:${++releases}`,
            EPOCH_TTL_MS,
            queued ? "1" : "0",
            leaseMs,
          ] as const;
          const [ours, failed, outcome] = await leave(redis, keys, args, mark, writes);
          // Freed by us, unmarked unless someone queued: the next take here tries it as free.
          if (ours === 1) rememberFreed(chat);
          const failure = carriedFailure(failed, outcome);
          if (failure) throw failure;
        },
      };
    },
  };
}
