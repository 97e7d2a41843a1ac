import { InlineKeyboard } from "grammy";
import { z } from "zod";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { idleMovedOf, keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { withAccount } from "../telegram/call-account.ts";
import { menuButton } from "./callback-data.ts";
import { carryWithRelease } from "./carried-writes.ts";
import { LOCALES, type Locale, type Translate } from "./i18n.ts";

/**
 * The idle notice, sent when a question's time runs out rather than when the user next writes.
 * Each question a flow waits on arms a deadline for its chat (prompt-loop.ts); the answer disarms
 * it. The sweeper, one of the process's workers, claims deadlines that passed and sends the
 * notice. The deadlines live in the shared store, so they survive a restart and any process may
 * send a notice; a claim (or a disarm) removes the deadline atomically, so exactly one side acts:
 * the sweeper's notice, or the flow's answer (an answer that lost the race ends the flow too,
 * since the chat was already told it had).
 *
 * "Lost the race" must mean a notice went out for THIS question, not merely "no deadline found":
 * a process killed after it disarmed, before the conversation's step was saved, leaves a replay
 * that finds no deadline (the arm is not repeated on replay) although no notice was sent. So each
 * arm is named by its own time (the deadline's score, drawn with the arm and replayed with it), the
 * sweeper records the time of the deadline it noticed, and disarm reports a notice only when that
 * time is the flow's own arm's. (A chat's arm after a notice is due at least the idle time after
 * the noticed one, so two arms share a time only with process clocks apart by the idle time.)
 *
 * What the notice says (locale, the flow to start again) is a key of its own, written by a flow's
 * first arm and again only when it changes (a /language mid-flow) or is half a day old: the other
 * questions' arms are one `ZADD` each (prompt-loop.ts keeps what its flow last wrote).
 */

const idleInfoSchema = z.object({
  locale: z.enum(LOCALES),
  /** The conversation to start again (a menu entry), if the flow is one. */
  flow: z.string().optional(),
  /** The command that starts the flow again ("/addmoney"), named when no Start again is offered. */
  again: z
    .string()
    .regex(/^\/[a-z]{1,32}$/)
    .optional(),
  /** The words that end the flow instead of "nothing was charged" (FlowWords.ended), a locale key. */
  ended: z
    .string()
    .regex(/^[a-z][a-z0-9-]{1,63}$/)
    .optional(),
  /**
   * Where the notice goes when not to the chat itself: the account a WhatsApp chat acts as when
   * that account is not the chat's own (a released number's fresh account, whatsapp/chat-ids.ts
   * `pushChatOf`); the chat's own id is the old account's, whose messages never reach it again.
   */
  to: z.number().int().optional(),
  /**
   * The account the flow ran for, in a WhatsApp chat when the notice goes to the chat itself: the
   * chat's own account may be released and the chat act as another one now, so the router tells
   * whose notice it is by this (telegram/call-account.ts), never by the chat id alone.
   */
  account: z.number().int().optional(),
  /** Read and dropped: arms written before an arm was named by its time carried a token. */
  token: z.string().max(64).optional(),
});
type IdleInfo = z.infer<typeof idleInfoSchema>;

export interface IdleDeadlines {
  /**
   * Sets the chat's deadline to `atMs`, which also names this arm (see disarm). `info` is what the
   * notice will say; without it the notice says what the chat's last arm with info said.
   */
  arm(chatId: number, atMs: number, info?: IdleInfo): Promise<void>;
  /**
   * Removes the chat's deadline. False only when the notice of the deadline armed at `armedAt`
   * went out (the flow must end); true otherwise, a deadline that was never written or already
   * removed included.
   */
  disarm(chatId: number, armedAt?: number): Promise<boolean>;
  /**
   * Moves the chat's deadline, if it has one, to `atMs`; it still names the arm that set it, so
   * its notice ends that flow (disarm false). A WhatsApp question a rate limit held reaches the
   * customer late: its idle time counts from then (whatsapp/owed-reply-worker.ts). False: none.
   */
  postpone(chatId: number, atMs: number): Promise<boolean>;
  /** Takes up to `limit` deadlines due by `nowMs`; each one is handed to exactly one caller. */
  claimDue(nowMs: number, limit: number): Promise<Array<{ chatId: number; info: IdleInfo }>>;
}

/** What a notice says without an info (lost, or armed before infos were kept). */
const FALLBACK_INFO: IdleInfo = { locale: "en" };
const withoutToken = ({ token: _token, ...rest }: IdleInfo): IdleInfo => rest;

export function memoryIdleDeadlines(max = 100_000): IdleDeadlines {
  const due = new Map<number, number>();
  const infos = new Map<number, IdleInfo>();
  const noticed = new Map<number, number>();
  /** A moved deadline's time and the arm it names (`postpone`); stale once the time differs. */
  const moved = new Map<number, { at: number; arm: number }>();
  const armOf = (chatId: number, at: number) => {
    const m = moved.get(chatId);
    return m !== undefined && m.at === at ? m.arm : at;
  };
  return {
    async arm(chatId, at, info) {
      due.set(chatId, at);
      moved.delete(chatId);
      if (info === undefined) return;
      infos.delete(chatId);
      infos.set(chatId, withoutToken(info));
      if (infos.size > max) {
        const oldest = infos.keys().next().value;
        if (oldest !== undefined) infos.delete(oldest);
      }
    },
    async postpone(chatId, at) {
      const cur = due.get(chatId);
      if (cur === undefined) return false;
      moved.set(chatId, { at, arm: armOf(chatId, cur) });
      due.set(chatId, at);
      return true;
    },
    async disarm(chatId, armedAt) {
      due.delete(chatId);
      moved.delete(chatId);
      const seen = noticed.get(chatId);
      if (seen === undefined || armedAt === undefined || seen !== armedAt) return true;
      noticed.delete(chatId);
      return false;
    },
    async claimDue(now, limit) {
      const out: Array<{ chatId: number; info: IdleInfo }> = [];
      for (const [chatId, at] of due) {
        if (out.length >= limit) break;
        if (at > now) continue;
        due.delete(chatId);
        noticed.set(chatId, armOf(chatId, at));
        moved.delete(chatId);
        const info = infos.get(chatId) ?? FALLBACK_INFO;
        infos.delete(chatId);
        out.push({ chatId, info });
      }
      return out;
    },
  };
}

// KEYS: due (zset), info (hash), noticed (hash). ARGV: chat id, the arm's time ('' = none).
// Returns 0 only when the notice of this very arm went out. Only run when the disarm's ZREM found
// no deadline (a notice went out, or a replay disarms again).
const DISARM = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
local seen = redis.call('HGET', KEYS[3], ARGV[1])
if ARGV[2] ~= '' and seen and tonumber(seen) ~= nil and tonumber(seen) == tonumber(ARGV[2]) then
  redis.call('HDEL', KEYS[3], ARGV[1])
  return 0
end
return 1
`;
// The arm a deadline names: its time, or for a moved one (postpone) the arm its move recorded.
// `mk` is the chat's moved key; the record counts only while its time is the deadline's.
const ARM_OF = `
local function armOf(mk, at)
  local m = redis.call('GET', mk)
  if not m then return at end
  local t, arm = string.match(m, '^([^:]+):(.+)$')
  if t and tonumber(t) == tonumber(at) then return arm end
  return at
end
`;
// KEYS: due, info (hash, as armed before the per-chat keys), noticed. ARGV: now, limit, the per-chat
// info key without the chat id (same slot), the per-chat moved key without it. For each claimed
// deadline the arm it names (its time, or a moved one's arm) is kept in noticed. Returns chat id,
// info JSON, chat id, info JSON...
const CLAIM = `${ARM_OF}
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i = 1, #due, 2 do
  local id = due[i]
  redis.call('ZREM', KEYS[1], id)
  local mk = ARGV[4] .. id
  local arm = armOf(mk, due[i + 1])
  redis.call('DEL', mk)
  local own = ARGV[3] .. id
  local info = redis.call('GET', own)
  if info then
    redis.call('DEL', own)
  else
    info = redis.call('HGET', KEYS[2], id) or ''
    redis.call('HDEL', KEYS[2], id)
  end
  redis.call('HSET', KEYS[3], id, arm)
  out[#out + 1] = id
  out[#out + 1] = info
end
return out
`;
// KEYS: due, the chat's moved key. ARGV: chat id, the new time, the moved key's TTL (ms). Moves
// the chat's deadline, if any, recording the arm it still names. Returns 1 moved, 0 none.
const POSTPONE = `${ARM_OF}
local cur = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not cur then return 0 end
local arm = armOf(KEYS[2], cur)
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2] .. ':' .. arm, 'PX', ARGV[3])
return 1
`;
type IdleKey = "due" | "info" | "noticed";
const disarmScript = luaScript<IdleKey, number>("raIdleDisarm", ["due", "info", "noticed"], DISARM);
const claimScript = luaScript<IdleKey, string[]>("raIdleClaim", ["due", "info", "noticed"], CLAIM);
const postponeScript = luaScript<"due" | "moved", number>(
  "raIdlePostpone",
  ["due", "moved"],
  POSTPONE,
);

export function redisIdleDeadlines(redis: RedisClient, prefix: string): IdleDeadlines {
  const k = keyspace(prefix);
  const keys = { due: k.idleDue, info: k.idleInfo, noticed: k.idleNoticed };
  return {
    // Arm and disarm run once per question: plain commands rather than a transaction or a
    // script (4 commands each, as Redis counts them). An arm is one ZADD; a flow's first arm (or
    // one whose notice changed) writes the notice's info too, as a key of its own that outlives the
    // deadline by a day (a sweeper down that long still finds it) and then goes by itself, so a
    // disarm only removes the deadline.
    async arm(chatId, at, info) {
      // With the chat's turn release when the update has one (carried-writes.ts): the arm comes
      // right before the wait that ends the update, and only the next update disarms it.
      const deadline = { command: "zadd", key: k.idleDue, args: [at, String(chatId)] } as const;
      const infoWrite = (i: IdleInfo) =>
        ({
          command: "set",
          key: k.idleInfoOf(chatId),
          args: [JSON.stringify(withoutToken(i)), "PX", infoTtlMs(at)],
        }) as const;
      if (carryWithRelease(info === undefined ? [deadline] : [deadline, infoWrite(info)])) return;
      if (info === undefined) {
        await redis.zadd(k.idleDue, at, String(chatId));
        return;
      }
      // The deadline first: from then on the chat's member carries the new (future) time, so a
      // sweep between the two cannot claim it before its info is replaced.
      await pipelineOk(
        redis
          .pipeline()
          .zadd(k.idleDue, at, String(chatId))
          .set(k.idleInfoOf(chatId), JSON.stringify(withoutToken(info)), "PX", infoTtlMs(at)),
      );
    },
    async disarm(chatId, armedAt) {
      const removed = await redis.zrem(k.idleDue, String(chatId));
      // Removed by us: no notice was claimed for it. Otherwise a sweeper may have noticed this
      // very arm (or nothing was armed, e.g. a replay): the script tells the two apart.
      if (removed === 1 || armedAt === undefined) return true;
      return (await disarmScript.run(redis, keys, String(chatId), String(armedAt))) === 1;
    },
    async postpone(chatId, at) {
      const named = { due: k.idleDue, moved: idleMovedOf(prefix, chatId) };
      const r = await postponeScript.run(redis, named, chatId, at, infoTtlMs(at));
      return Number(r) === 1;
    },
    async claimDue(now, limit) {
      const flat = await claimScript.run(
        redis,
        keys,
        String(now),
        String(limit),
        k.idleInfoOf(0).slice(0, -1),
        idleMovedOf(prefix, 0).slice(0, -1),
      );
      const out: Array<{ chatId: number; info: IdleInfo }> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const parsed = idleInfoSchema.safeParse(safeJson(flat[i + 1] ?? ""));
        out.push({
          chatId: Number(flat[i]),
          info: parsed.success ? withoutToken(parsed.data) : FALLBACK_INFO,
        });
      }
      return out;
    },
  };
}

/** How long an arm's info is kept: past its deadline by a day. */
const infoTtlMs = (at: number) => Math.max(1, Math.round(at - Date.now())) + 86_400_000;

/** The replies of a pipeline, throwing the first command's error as a MULTI's exec would. */
async function pipelineOk(p: ReturnType<RedisClient["pipeline"]>): Promise<unknown[]> {
  const replies = (await p.exec()) ?? [];
  const failed = replies.find(([err]) => err);
  if (failed?.[0]) throw failed[0];
  return replies.map(([, v]) => v);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The notice, naming the configured time in minutes when it is whole minutes, else in seconds, and
 * the command that starts the flow the user was in again (`again`: /addmoney after a top-up, not
 * /recharge) when no Start again button is offered with it.
 */
export function idleText(t: Translate, idleMs: number, again?: string, endedKey?: string): string {
  // A flow that cannot say "nothing was charged" (a booking not known to be done) says its own.
  if (endedKey) return t(endedKey);
  const ended =
    idleMs >= 60_000 && idleMs % 60_000 === 0
      ? t("common-idle-ended", { minutes: idleMs / 60_000 })
      : t("common-idle-ended-seconds", { seconds: Math.max(1, Math.round(idleMs / 1000)) });
  return again ? `${ended} ${t("idle-start-again", { command: again })}` : ended;
}

/** Start again: the same category's menu button when the flow is one. */
function startAgainKeyboard(t: Translate, info: IdleInfo): InlineKeyboard | undefined {
  if (!info.flow || !menuButton.fits(info.flow)) return undefined;
  return new InlineKeyboard().text(t("common-start-again"), menuButton.build(info.flow));
}

export interface IdleSweeperOptions {
  deadlines: IdleDeadlines;
  send: (chatId: number, text: string, keyboard: InlineKeyboard | undefined) => Promise<unknown>;
  translate: (locale: Locale) => Translate;
  idleMs: number;
  intervalMs: number;
  now: () => number;
  logger: Logger;
}

/** The worker that sends idle notices when their time comes. */
export function createIdleSweeper(o: IdleSweeperOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    const claimed = await o.deadlines.claimDue(o.now(), 50);
    for (const { chatId, info } of claimed) {
      const t = o.translate(info.locale);
      // A notice that cannot be sent is only a notice: the flow still ends on the next update.
      const keyboard = startAgainKeyboard(t, info);
      await withAccount(info.account, () =>
        o.send(
          info.to ?? chatId,
          idleText(t, o.idleMs, keyboard ? undefined : info.again, info.ended),
          keyboard,
        ),
      ).catch((err) => o.logger.warn({ chatId, err: String(err) }, "idle notice not sent"));
    }
  };
  return {
    start() {
      timer = setInterval(() => {
        running = running
          .then(sweep)
          .catch((err) => o.logger.warn({ err: String(err) }, "idle sweep failed"));
      }, o.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
