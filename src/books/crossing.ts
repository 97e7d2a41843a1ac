import type { MemoryOutbox } from "../orders/memory-store.ts";
import { type Notification, notificationSchema } from "../orders/model.ts";
import { holdWritesForTurn } from "../orders/redis-batch.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * One alert per crossing: a named state, "below" or "above" a line, and the alerts written in the
 * same atomic step as the step down (one script with the outbox on Redis; one synchronous step
 * with the memory outbox). Going below again alerts only after a reading above re-armed it; a
 * crash cannot lose an alert that flipped the state, nor flip without queueing it.
 */
export interface Crossings {
  /**
   * Records a reading. `below`: queue `alerts` when the state was not already below (true when
   * it did). Not below: re-arms.
   */
  record(name: string, below: boolean, alerts: readonly Notification[]): Promise<boolean>;
  /** Sets a named mark once: true for the caller that set it, false when it was set already. */
  markOnce(name: string): Promise<boolean>;
  isMarked(name: string): Promise<boolean>;
  /** Keeps a small named record (the books check's last outcome), readable by every process. */
  remember(name: string, json: string): Promise<void>;
  recall(name: string): Promise<string | null>;
}

export function createMemoryCrossings(outbox: MemoryOutbox): Crossings {
  const state = new Map<string, "below" | "above">();
  const marks = new Set<string>();
  const notes = new Map<string, string>();
  return {
    async remember(name, json) {
      notes.set(name, json);
    },
    async recall(name) {
      return notes.get(name) ?? null;
    },
    async markOnce(name) {
      if (marks.has(name)) return false;
      marks.add(name);
      return true;
    },
    async isMarked(name) {
      return marks.has(name);
    },
    async record(name, below, alerts) {
      if (!below) {
        state.set(name, "above");
        return false;
      }
      if (state.get(name) === "below") return false;
      state.set(name, "below");
      outbox.append(alerts.map((n) => notificationSchema.parse(n)));
      return true;
    },
  };
}

// KEYS: the crossing's state, the outbox stream. ARGV: below (1|0), alerts (JSON)...
const RECORD = `
if ARGV[1] ~= '1' then
  redis.call('SET', KEYS[1], 'above')
  return 0
end
if redis.call('GET', KEYS[1]) == 'below' then return 0 end
redis.call('SET', KEYS[1], 'below')
for i = 2, #ARGV do redis.call('XADD', KEYS[2], '*', 'n', ARGV[i]) end
return 1
`;
const recordScript = luaScript<"state" | "outbox", number>(
  "raBooksCrossing",
  ["state", "outbox"],
  RECORD,
);

export function createRedisCrossings(redis: RedisClient, prefix: string): Crossings {
  const k = keyspace(prefix);
  const hold = holdWritesForTurn(redis);
  return {
    async remember(name, json) {
      await redis.set(k.crossing(`note:${name}`), json);
    },
    async recall(name) {
      return redis.get(k.crossing(`note:${name}`));
    },
    async markOnce(name) {
      return (await redis.set(k.crossing(`mark:${name}`), "1", "NX")) === "OK";
    },
    async isMarked(name) {
      return (await redis.exists(k.crossing(`mark:${name}`))) === 1;
    },
    async record(name, below, alerts) {
      // Re-arming is one write with nothing to decide: a plain SET, not the script (one command
      // instead of two, on every reading above the line). It leaves with the turn's other
      // writes: the execute's answer, written in the same turn (orders/submit.ts).
      if (!below) {
        hold();
        await redis.set(k.crossing(name), "above");
        return false;
      }
      const r = await recordScript.run(
        redis,
        { state: k.crossing(name), outbox: k.outbox },
        below ? "1" : "0",
        ...alerts.map((n) => JSON.stringify(notificationSchema.parse(n))),
      );
      return r === 1;
    },
  };
}
