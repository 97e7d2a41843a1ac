import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { accountNumberChangesKey } from "../redis/keyspace.ts";
import { storedJson } from "../stored-json.ts";
import { phoneSchema } from "./phone.ts";

/**
 * WhatsApp customers who changed number, as Meta's signed system notice (`user_changed_number`)
 * told us: the old number (the notice's sender), the new one, when. The back office lists them
 * with the old account's balance and a button to move it (dashboard/pages/balance-move.ts): the
 * chats and accounts key on the phone, so the new number's chat is another account
 * (docs/whatsapp.md, "A changed number"). One record per notice: Meta's redelivery writes nothing.
 */
export const numberChangeSchema = z.object({
  wamid: z.string().min(1).max(200),
  oldPhone: phoneSchema,
  newPhone: phoneSchema,
  at: z.number().int(),
});
export type NumberChange = z.infer<typeof numberChangeSchema>;

export interface NumberChanges {
  /** True the first time this notice (its wamid) is recorded, false for a redelivery. */
  record(c: NumberChange): Promise<boolean>;
  /** The newest first, at most `limit`. */
  list(limit: number): Promise<NumberChange[]>;
}

const newestFirst = (all: NumberChange[], limit: number) =>
  all.sort((a, b) => b.at - a.at).slice(0, limit);

export function createMemoryNumberChanges(): NumberChanges {
  const byWamid = new Map<string, NumberChange>();
  return {
    async record(c) {
      if (byWamid.has(c.wamid)) return false;
      byWamid.set(c.wamid, numberChangeSchema.parse(c));
      return true;
    },
    async list(limit) {
      return newestFirst([...byWamid.values()], limit);
    },
  };
}

export function createRedisNumberChanges(opts: {
  redis: RedisClient;
  prefix: string;
}): NumberChanges {
  const key = accountNumberChangesKey(opts.prefix);
  return {
    async record(c) {
      const json = JSON.stringify(numberChangeSchema.parse(c));
      return (await opts.redis.hsetnx(key, c.wamid, json)) === 1;
    },
    async list(limit) {
      const all = Object.values(await opts.redis.hgetall(key));
      const read = all.map((raw) => storedJson(numberChangeSchema, raw));
      return newestFirst(
        read.filter((c): c is NumberChange => c !== null),
        limit,
      );
    },
  };
}
