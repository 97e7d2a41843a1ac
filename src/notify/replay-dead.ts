import { type Notification, notificationSchema } from "../orders/model.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * Replays the notifier's dead letters (an operator's command: scripts/replay-dead-pushes.ts):
 * each readable one is queued again as a new entry of the outbox and leaves the dead list, in one
 * script, so two replays running at once do not queue one letter twice. Safe while the product
 * runs and for letters whose push did reach the chat: a final push or an admin alert whose sent
 * marker is written is not pushed again (its receipt is edited again, which changes nothing), one
 * whose send's answer was lost is told through the receipt edit, not pushed again, and an
 * intermediate status overtaken since is dropped. Unreadable letters (no notification in them,
 * or a raw entry this version cannot read either) stay in the list. A letter that fails again comes back to the list with its new reason.
 */

export interface DeadLetter {
  notification: Notification;
  reason: string;
  at: number;
}

export interface ReplayResult {
  /** The readable letters looked at, newest first (replayed unless a dry run). */
  letters: DeadLetter[];
  /** Queued again and taken off the list. */
  replayed: number;
  /** Letters left in the list: unreadable, or taken by another replay meanwhile. */
  skipped: number;
}

/** Takes one letter off the list and queues its notification, only if the letter is still there. */
const replayOne = luaScript<"dead" | "outbox", number>(
  "raNotifyReplayDead",
  ["dead", "outbox"],
  `
if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 1 then
  redis.call('XADD', KEYS[2], '*', 'n', ARGV[2])
  return 1
end
return 0
`,
);

function readLetter(raw: string): DeadLetter | undefined {
  try {
    const d = JSON.parse(raw) as {
      notification?: unknown;
      raw?: unknown;
      reason?: unknown;
      at?: unknown;
    };
    // An entry an older version could not read (a new complaint's "raised" alert during a
    // rolling deploy) is kept raw: this version may read it, and replays it.
    const body = d.notification ?? (typeof d.raw === "string" ? JSON.parse(d.raw) : undefined);
    const n = notificationSchema.safeParse(body);
    return n.success
      ? { notification: n.data, reason: String(d.reason), at: Number(d.at) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Replays up to `limit` dead letters, newest first (`dryRun`: lists them, changes nothing). */
export async function replayDeadLetters(
  redis: RedisClient,
  prefix: string,
  opts: { limit?: number; dryRun?: boolean } = {},
): Promise<ReplayResult> {
  const k = keyspace(prefix);
  const raws = await redis.lrange(k.dead, 0, Math.max(1, opts.limit ?? 1_000) - 1);
  const result: ReplayResult = { letters: [], replayed: 0, skipped: 0 };
  for (const raw of raws) {
    const letter = readLetter(raw);
    if (!letter) {
      result.skipped++;
      continue;
    }
    result.letters.push(letter);
    if (opts.dryRun) continue;
    const body = JSON.stringify(letter.notification);
    if ((await replayOne.run(redis, { dead: k.dead, outbox: k.outbox }, raw, body)) === 1)
      result.replayed++;
    else result.skipped++;
  }
  return result;
}
