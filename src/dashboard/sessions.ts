import { z } from "zod";
import { storedJson } from "../stored-json.ts";
import type { DashboardTimes } from "./deps.ts";
import type { DashboardKeys } from "./keys.ts";
import type { DashboardKv } from "./kv.ts";
import { hashSecret, isSecretShaped, newSecret } from "./secret.ts";

/**
 * Back-office sessions: an opaque id in the browser's cookie, its SHA-256 in Redis with who it is
 * and when it began and was last used. Every login makes a new id (the old one, if the browser
 * sent one, is ended), so an id planted before login is worth nothing. A session ends when unused
 * for `idleMs`, `absoluteMs` after login whatever its use, at logout, and with all of its person's
 * sessions when their role is gone (revokeAll). Revoking deletes the record; the touch that keeps a
 * session alive writes only over an existing record (SET XX, kv.replace), so it cannot bring one back.
 */

export const sessionRecordSchema = z.object({
  userId: z.number().int().positive(),
  createdAt: z.number().int(),
  lastSeenAt: z.number().int(),
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

export type SessionVerdict = "ok" | "idle" | "expired";

/** Whether a session may still be used at `now` (pure: the clock is the caller's). */
export function sessionVerdict(
  s: SessionRecord,
  now: number,
  times: DashboardTimes,
): SessionVerdict {
  if (now - s.createdAt >= times.absoluteMs) return "expired";
  if (now - s.lastSeenAt >= times.idleMs) return "idle";
  return "ok";
}

export interface Sessions {
  /** A new session for the person; returns the id for the cookie. */
  create(userId: number): Promise<string>;
  /** The session behind the id if it is still good (and marks it used now), else null. */
  touch(id: string | undefined): Promise<SessionRecord | null>;
  /** Ends one session (logout); unknown ids are fine. */
  destroy(id: string | undefined): Promise<void>;
  /** Ends every session of the person; returns how many ids its index held (some may have ended). */
  revokeAll(userId: number): Promise<number>;
}

function parseRecord(raw: string | null): SessionRecord | null {
  return storedJson(sessionRecordSchema, raw);
}

export function createSessions(opts: {
  kv: DashboardKv;
  keys: DashboardKeys;
  times: DashboardTimes;
  now: () => number;
}): Sessions {
  const { kv, keys, times } = opts;

  async function forget(hash: string, userId: number | undefined): Promise<void> {
    await kv.del(keys.session(hash));
    if (userId !== undefined) await kv.srem(keys.userSessions(userId), hash);
  }

  return {
    async create(userId) {
      const id = newSecret();
      const hash = hashSecret(id);
      const at = opts.now();
      const record: SessionRecord = { userId, createdAt: at, lastSeenAt: at };
      await kv.setPx(keys.session(hash), JSON.stringify(record), times.absoluteMs);
      // The person's index lives as long as their newest session can.
      await kv.sadd(keys.userSessions(userId), hash, times.absoluteMs);
      return id;
    },
    async touch(id) {
      if (!isSecretShaped(id)) return null;
      const hash = hashSecret(id);
      const record = parseRecord(await kv.get(keys.session(hash)));
      if (!record) return null;
      const now = opts.now();
      if (sessionVerdict(record, now, times) !== "ok") {
        await forget(hash, record.userId);
        return null;
      }
      const used: SessionRecord = { ...record, lastSeenAt: Math.max(now, record.lastSeenAt) };
      return (await kv.replace(keys.session(hash), JSON.stringify(used))) ? used : null;
    },
    async destroy(id) {
      if (!isSecretShaped(id)) return;
      const hash = hashSecret(id);
      const record = parseRecord(await kv.get(keys.session(hash)));
      await forget(hash, record?.userId);
    },
    async revokeAll(userId) {
      const hashes = await kv.smembers(keys.userSessions(userId));
      // One key at a time: in a Cluster the sessions are spread over slots.
      for (const hash of hashes) await kv.del(keys.session(hash));
      await kv.del(keys.userSessions(userId));
      return hashes.length;
    },
  };
}
