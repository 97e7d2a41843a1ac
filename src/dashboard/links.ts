import { z } from "zod";
import { DASHBOARD_PATH } from "./deps.ts";
import type { DashboardKeys } from "./keys.ts";
import type { DashboardKv } from "./kv.ts";
import { hashSecret, isSecretShaped, newSecret } from "./secret.ts";

/**
 * One-time login links (issue 29). The token is 256 random bits, handed out once in the chat; Redis
 * keeps only its SHA-256 with the person who asked and when the link ends, expiring with it.
 * Reading a link (GET, which a link-preview crawler may do) never spends it; only the confirm POST
 * does, with GETDEL: one atomic read-and-delete, so two POSTs of the same token log in once.
 * The end time is also checked against the injected clock, so tests (and a Redis whose expiry
 * lags) cannot stretch a link past its 10 minutes. One live link per person (review s24-a N3): a
 * new link's hash replaces the person's previous one in `dash:user:<id>:link` (SET … GET, one
 * step) and the previous link is deleted; a link also logs in only while it is the one named
 * there, so two links asked for at once leave one good, even if a delete was lost. A spent link
 * leaves, for the rest of its life, the hash of the session its login made (never a way in: only
 * that session is), so a second click on "Log in" in the browser that login went to can go to the
 * back office (review s24-a, N4); any other browser, the link's owner's included, reads that the
 * link was used: the one sign that someone else used it (review s24-e, 2).
 */

export const linkRecordSchema = z.object({
  userId: z.number().int().positive(),
  expiresAt: z.number().int(),
});
export type LinkRecord = z.infer<typeof linkRecordSchema>;

export interface IssuedLink {
  token: string;
  url: string;
  expiresAt: number;
}

export interface LoginLinks {
  issue(userId: number): Promise<IssuedLink>;
  /** The link's record when it is good, without spending it (the confirm page). */
  peek(token: string): Promise<LinkRecord | null>;
  /** Spends the link: the first call gets its record, every later one null. */
  spend(token: string): Promise<LinkRecord | null>;
  /**
   * Puts a spent link back for the rest of its life: its login handed nothing out (the audit
   * line could not be written), so the same "Log in" may be tried again. False when it is too late.
   */
  unspend(token: string, link: LinkRecord): Promise<boolean>;
  /** Remembers, for the rest of the spent link's life, the session its login made. */
  spentInto(token: string, link: LinkRecord, sessionId: string): Promise<void>;
  /** The hash of the session a link spent less than 10 minutes ago made; null for any other. */
  spentSession(token: string): Promise<string | null>;
}

/** The path of a login link under the back office (its token is a path segment). */
export const loginPath = (token: string) => `${DASHBOARD_PATH}/login/${token}`;

/**
 * Whether a text carries a login link (its path and a token-shaped segment): a channel that
 * records what it sent (WhatsApp's chat record) must not keep such a text, or Redis would hold
 * a token that logs in.
 */
export const carriesLoginLink = (text: string): boolean =>
  new RegExp(`${loginPath("")}[A-Za-z0-9_-]{43}`).test(text);

/** A stored record, or null when it is missing, unreadable or past its end. */
export function liveLink(raw: string | null, now: number): LinkRecord | null {
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const record = linkRecordSchema.safeParse(parsed);
  if (!record.success || record.data.expiresAt <= now) return null;
  return record.data;
}

export function createLoginLinks(opts: {
  kv: DashboardKv;
  keys: DashboardKeys;
  publicUrl: string;
  linkMs: number;
  now: () => number;
}): LoginLinks {
  const { kv, keys } = opts;
  const origin = opts.publicUrl.replace(/\/+$/, "");
  /** The record when its link is still the person's newest, else null (a newer one was sent). */
  const newest = async (hash: string, r: LinkRecord | null) =>
    r !== null && (await kv.get(keys.userLink(r.userId))) === hash ? r : null;
  return {
    async issue(userId) {
      const token = newSecret();
      const hash = hashSecret(token);
      const expiresAt = opts.now() + opts.linkMs;
      const record: LinkRecord = linkRecordSchema.parse({ userId, expiresAt });
      await kv.setPx(keys.link(hash), JSON.stringify(record), opts.linkMs);
      const previous = await kv.swap(keys.userLink(userId), hash, opts.linkMs);
      if (previous !== null && previous !== hash) await kv.del(keys.link(previous));
      return { token, url: `${origin}${loginPath(token)}`, expiresAt };
    },
    async peek(token) {
      if (!isSecretShaped(token)) return null;
      const hash = hashSecret(token);
      return newest(hash, liveLink(await kv.get(keys.link(hash)), opts.now()));
    },
    async spend(token) {
      if (!isSecretShaped(token)) return null;
      const hash = hashSecret(token);
      return newest(hash, liveLink(await kv.getdel(keys.link(hash)), opts.now()));
    },
    async unspend(token, link) {
      const rest = link.expiresAt - opts.now();
      if (!isSecretShaped(token) || rest <= 0) return false;
      await kv.setPx(keys.link(hashSecret(token)), JSON.stringify(link), rest);
      return true;
    },
    async spentInto(token, link, sessionId) {
      if (!isSecretShaped(token)) return;
      const rest = Math.max(1, link.expiresAt - opts.now());
      await kv.setPx(keys.spent(hashSecret(token)), hashSecret(sessionId), rest);
    },
    async spentSession(token) {
      if (!isSecretShaped(token)) return null;
      const mark = await kv.get(keys.spent(hashSecret(token)));
      return mark !== null && /^[0-9a-f]{64}$/.test(mark) ? mark : null;
    },
  };
}
