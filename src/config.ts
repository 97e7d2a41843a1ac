import { isIP } from "node:net";
import { z } from "zod";
import { createCatalog, INDIA_OPERATOR_KEYS, type IndiaOperatorKey } from "./catalog/index.ts";
import { DEFAULT_INR_TO_NPR_RATE, parseRate } from "./pricing/exchange.ts";
import {
  DEFAULT_PRICE_SCHEDULE,
  PriceScheduleError,
  readPriceSchedule,
} from "./pricing/schedule.ts";
import { type BotApiPolicy, DEFAULT_BOT_API_POLICY, minSendLockMs } from "./telegram/policy.ts";

/**
 * Every setting of the process, read once from the environment. Unset optional values select the
 * embedded, zero-configuration mode: local playground instead of Telegram, embedded sandbox instead
 * of the real aggregator, memory instead of Redis.
 */

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const int = (def: number, min = 0) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).default(def));
const bool = (def: boolean) =>
  z
    .preprocess(
      emptyToUndefined,
      z.enum(["true", "false", "1", "0", "yes", "no"]).default(def ? "true" : "false"),
    )
    .transform((v) => v === "true" || v === "1" || v === "yes");
const port = (def: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65_535).default(def));
/** An IPv4/IPv6 address or a DNS hostname: what `listen()` accepts without a lookup failure. */
const host = (def: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(def)
      .refine(isIpOrPlainHostname, "must be an IPv4 or IPv6 address or a plain hostname"),
  );
const HOSTNAME =
  /^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/**
 * An IP address, or a hostname of letters, digits and hyphens whose last label is not all digits
 * (RFC 1123 2.1: a name must not look like a dotted number; "10.0.0.256" is no name).
 */
function isIpOrPlainHostname(h: string): boolean {
  if (isIP(h) !== 0) return true;
  return HOSTNAME.test(h) && !/(^|\.)\d+$/.test(h);
}
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });
/** INDIA_OPERATOR_IDS: "jio-prepaid=301,tata-play=330"; each key one of INDIA_OPERATOR_KEYS. */
const indiaOperatorIds = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("")
    .transform((s, ctx) => {
      const ids: Partial<Record<IndiaOperatorKey, number>> = {};
      for (const part of s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^([a-z-]+)\s*=\s*(\d{1,9})$/.exec(part);
        const key = m?.[1] as IndiaOperatorKey | undefined;
        if (!m || !key || !INDIA_OPERATOR_KEYS.includes(key) || Number(m[2]) < 1) {
          ctx.addIssue({
            code: "custom",
            message: `"${part}" is not <operator>=<id> with <operator> one of ${INDIA_OPERATOR_KEYS.join(", ")}`,
          });
          return z.NEVER;
        }
        ids[key] = Number(m[2]);
      }
      return ids;
    }),
);
/**
 * Only real loopback addresses count: `localhost`, an IPv4 address in 127.0.0.0/8, `::1` (also
 * bracketed) and the IPv4-mapped `::ffff:127.x.y.z`. A DNS name that merely starts with "127."
 * (127.evil.example) resolves wherever its owner wants.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) !== 6) return false;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1];
  return mapped !== undefined && isIP(mapped) === 4 && mapped.startsWith("127.");
}
/** The most any configured body limit may be: a larger body is no webhook, only a memory load. */
const MAX_BODY_LIMIT_BYTES = 1024 * 1024;
/** A webhook secret shorter than this is guessable (it keys the HMAC and the cipher). */
const MIN_WEBHOOK_SECRET_LENGTH = 16;
const idList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("")
    .transform((s, ctx) => {
      const ids = s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      for (const id of ids) {
        if (!/^-?\d{1,20}$/.test(id)) {
          ctx.addIssue({ code: "custom", message: `"${id}" is not a Telegram user id` });
          return z.NEVER;
        }
      }
      return ids.map(Number);
    }),
);

/** `host:port` or `[ipv6]:port`, comma-separated: REDIS_SENTINELS, REDIS_CLUSTER_NODES. */
const hostPortList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .transform((s, ctx) => {
      const out: Array<{ host: string; port: number }> = [];
      for (const part of s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(part);
        const h = m?.[1] ?? m?.[2] ?? "";
        const p = Number(m?.[3]);
        const hostOk = isIpOrPlainHostname(h);
        if (!m || !hostOk || p < 1 || p > 65_535) {
          ctx.addIssue({ code: "custom", message: `"${part}" is not host:port` });
          return z.NEVER;
        }
        out.push({ host: h, port: p });
      }
      if (out.length === 0) {
        ctx.addIssue({ code: "custom", message: "no host:port given" });
        return z.NEVER;
      }
      return out;
    })
    .optional(),
);

const envSchema = z.object({
  BOT_TOKEN: optionalString,
  TELEGRAM_API_ROOT: z.preprocess(
    emptyToUndefined,
    httpUrl.transform((u) => u.replace(/\/+$/, "")).optional(),
  ),
  PROVIDER_URL: z.preprocess(
    emptyToUndefined,
    httpUrl
      .refine((u) => /\/api\/v1\/?$/.test(u), "must be the base URL ending in /api/v1")
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  PROVIDER_TOKEN: optionalString,
  WEBHOOK_SECRET: optionalString,
  WEBHOOK_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/").default("/webhooks/provider"),
  ),
  WEBHOOK_KEY_MODE: z.preprocess(emptyToUndefined, z.enum(["php", "sha256"]).default("php")),
  WEBHOOK_MAX_BODY_BYTES: int(64 * 1024, 256).refine(
    (n) => n <= MAX_BODY_LIMIT_BYTES,
    `must be at most ${MAX_BODY_LIMIT_BYTES} (1 MiB)`,
  ),
  WEBHOOK_CONFIRM_FINAL: bool(true),
  SANDBOX_TOKEN: z.preprocess(emptyToUndefined, z.string().default("sandbox-token")),
  SANDBOX_PORT: port(8090),
  SANDBOX_WEBHOOK_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  SANDBOX_TO_PENDING_MS: int(1000, 0),
  SANDBOX_TO_FINAL_MS: int(2000, 0),
  SANDBOX_RATE_LIMIT: int(50, 0),
  SANDBOX_FAULTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("{}")
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: "not valid JSON" });
          return z.NEVER;
        }
      })
      // Each token's faults are checked by the sandbox that applies them (local mode, `npm run
      // sandbox`): the configuration stays below the development harness.
      .pipe(z.record(z.string(), z.record(z.string(), z.unknown()))),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional(),
  ),
  REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().default("ra:")),
  /** Sentinels to ask for the current primary (replaces REDIS_URL's host:port). */
  REDIS_SENTINELS: hostPortList,
  /** Seed nodes of a Redis Cluster (replaces REDIS_URL's host:port); the client learns the rest. */
  REDIS_CLUSTER_NODES: hostPortList,
  REDIS_SENTINEL_NAME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, "must be the master group name of the Sentinels' configuration")
      .optional(),
  ),
  REDIS_SENTINEL_PASSWORD: optionalString,
  /** WAIT for this many replicas after the order writes that must survive a failover (0: never). */
  REDIS_WAIT_REPLICAS: int(0, 0),
  REDIS_WAIT_TIMEOUT_MS: int(1_000, 1),
  PORT: port(8080),
  HOST: host("127.0.0.1"),
  /** Prometheus metrics, on a listener of their own (never the public one). */
  METRICS_PORT: port(9464),
  METRICS_HOST: host("127.0.0.1"),
  METRICS_TOKEN: optionalString,
  /** The playground (and its Bot API emulator) with a real provider: only on purpose. */
  PLAYGROUND: bool(false),
  /** The playground on a non-loopback HOST: only on purpose. */
  PLAYGROUND_PUBLIC: bool(false),
  /** A real provider with orders kept in memory (lost with the process): only on purpose. */
  ALLOW_MEMORY_STORES: bool(false),
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    httpUrl.transform((u) => u.replace(/\/+$/, "")).optional(),
  ),
  AGENT_IDS: idList,
  ADMIN_IDS: idList,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  PROVIDER_LOOKUP_TIMEOUT_MS: int(10_000, 1),
  PROVIDER_EXECUTE_TIMEOUT_MS: int(30_000, 1),
  PROVIDER_MAX_RETRIES: int(3, 0),
  PROVIDER_INDIA_EXECUTE_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/", "must start with /").default("/in/recharge/execute"),
  ),
  PROVIDER_OPERATORS_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/", "must start with /").default("/np/operators"),
  ),
  PROVIDER_OPERATOR_TYPES_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/", "must start with /").default("/np/operator-types"),
  ),
  PROVIDER_INDIA_OPERATORS_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/", "must start with /").default("/in/operators"),
  ),
  PROVIDER_INDIA_OPERATOR_TYPES_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/", "must start with /").default("/in/operator-types"),
  ),
  /** The provider's zone-less timestamps are in this UTC offset (Nepal Time, +05:45, assumed). */
  PROVIDER_UTC_OFFSET_MINUTES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(-720).max(840).default(345),
  ),
  PROVIDER_INDIA_PLANS_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/", "must start with /").default("/in/operator-plans"),
  ),
  PROVIDER_INDIA_DTH_BILL_PATH: z.preprocess(
    emptyToUndefined,
    z.string().startsWith("/", "must start with /").default("/in/operator-plans"),
  ),
  NTC_MOBILE_MAX_AMOUNT: int(3000, 50),
  WATER_OPERATOR_ID: int(46, 1),
  ELECTRICITY_OPERATOR_ID: int(118, 1),
  ELECTRICITY_OPERATOR_TYPE_ID: int(8, 1),
  INDIA_OPERATOR_IDS: indiaOperatorIds,
  INDIA_MOBILE_OPERATOR_TYPE_ID: int(1, 1),
  INDIA_DTH_OPERATOR_TYPE_ID: int(2, 1),
  BILL_ADVANCE_MIN: int(1, 1),
  BILL_ADVANCE_MAX: int(100_000, 1),
  CATALOG_REFRESH_MS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .refine((n) => n === 0 || n >= 1000, "must be 0 (only at start) or at least 1000")
      .default(300_000),
  ),
  RECONCILE_INTERVAL_MS: int(15_000, 100),
  RECONCILE_MIN_AGE_MS: int(20_000, 0),
  RECONCILE_MAX_AGE_MS: int(60 * 60_000, 1000),
  /** How long "not found" from the provider is not trusted after submit; default: the execute timeout. */
  RECONCILE_NOT_FOUND_GRACE_MS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).optional(),
  ),
  NOTIFY_CLAIM_IDLE_MS: int(30_000, 1000),
  /** Default: the shortest lock that outlives a delivery's Bot API calls (minSendLockMs). */
  NOTIFY_LOCK_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).optional()),
  TELEGRAM_TIMEOUT_MS: int(DEFAULT_BOT_API_POLICY.timeoutMs, 100),
  TELEGRAM_ATTEMPTS: int(DEFAULT_BOT_API_POLICY.attempts, 1),
  TELEGRAM_WEBHOOK_ANSWER_MS: int(3_000, 100),
  CONVERSATION_IDLE_MS: int(10 * 60_000, 1000),
  SESSION_TTL_SECONDS: int(7 * 24 * 3600, 60),
  DAILY_SPEND_CAP: int(25_000, 0),
  ORDERS_PER_HOUR: int(20, 1),
  /** The merchant's price schedule (src/pricing/); unset: face amount, no fee, no discount. */
  PRICE_SCHEDULE_FILE: optionalString,
  /**
   * Nepal rupees per 1 Indian rupee (at most four decimals; default the official peg, 1.6): an India
   * order in prepaid mode is paid from the Nepal-rupee balance at this rate, rounded up to the paisa.
   */
  INR_TO_NPR_RATE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(DEFAULT_INR_TO_NPR_RATE)
      .transform((text, ctx) => {
        const r = parseRate(text);
        if (!r.ok) {
          ctx.addIssue({ code: "custom", message: r.why });
          return z.NEVER;
        }
        return r.rateE4;
      }),
  ),
  /**
   * Who pays for an order. prepaid (default): anyone may register (by sharing their own phone
   * contact) and orders from a balance that covers the price, held at confirm. staff: only the
   * listed users (AGENT_IDS, ADMIN_IDS, STAFF_IDS) may order, and the merchant's wallet pays.
   * The transitional "open" (anyone orders, nobody is charged) is gone: it is refused by name.
   */
  ACCESS_MODE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("prepaid")
      .pipe(
        z.enum(["prepaid", "staff"], {
          error: (i) =>
            i.input === "open"
              ? 'ACCESS_MODE=open was transitional and is gone (anyone ordered at the merchant\'s cost): use "prepaid" or "staff" with STAFF_IDS'
              : 'must be "prepaid" or "staff"',
        }),
      ),
  ),
  /** Who may order in staff mode besides agents and admins. */
  STAFF_IDS: idList,
  /** Rupees: the merchant's wallet at the aggregator below this alerts admins (0: off). */
  LOW_FLOAT_ALERT: int(5_000, 0),
  /** The books' check (float against the aggregator's report): how often. */
  BOOKS_CHECK_INTERVAL_MS: int(24 * 3600_000, 1000),
  /** Rupees: a float difference beyond this alerts admins. */
  BOOKS_DRIFT_TOLERANCE: int(1, 0),
  /** Khalti ePayment's base URL (sandbox or production, ending in /api/v2); unset: the local stand-in in local mode, no top-ups otherwise. */
  KHALTI_BASE_URL: z.preprocess(
    emptyToUndefined,
    httpUrl
      .refine((u) => /\/api\/v2\/?$/.test(u), "must be the base URL ending in /api/v2")
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  KHALTI_SECRET_KEY: optionalString,
  KHALTI_TIMEOUT_MS: int(10_000, 100),
  /** The public base URL Khalti sends the payer's browser back to (default PUBLIC_URL). */
  TOPUP_PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    httpUrl.transform((u) => u.replace(/\/+$/, "")).optional(),
  ),
  TOPUP_MAX_AMOUNT: int(10_000, 10),
  TOPUP_DAILY_CAP: int(25_000, 10),
  TOPUP_LOOKUP_INTERVAL_MS: int(15_000, 100),
  TOPUP_REFUND_WATCH_MS: int(7 * 86_400_000, 0),
  TOPUP_REFUND_CHECK_MS: int(3_600_000, 100),
});

export type Env = z.input<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses the environment into the one typed configuration object. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.BILL_ADVANCE_MIN > e.BILL_ADVANCE_MAX)
    problems.push("BILL_ADVANCE_MAX: must not be below BILL_ADVANCE_MIN");
  const catalogSettings = {
    ntcMobileMaxAmount: e.NTC_MOBILE_MAX_AMOUNT,
    waterOperatorId: e.WATER_OPERATOR_ID,
    electricityOperatorId: e.ELECTRICITY_OPERATOR_ID,
    electricityOperatorTypeId: e.ELECTRICITY_OPERATOR_TYPE_ID,
    indiaOperatorIds: e.INDIA_OPERATOR_IDS,
    indiaMobileOperatorTypeId: e.INDIA_MOBILE_OPERATOR_TYPE_ID,
    indiaDthOperatorTypeId: e.INDIA_DTH_OPERATOR_TYPE_ID,
    advanceMinRupees: e.BILL_ADVANCE_MIN,
    advanceMaxRupees: e.BILL_ADVANCE_MAX,
  };
  try {
    createCatalog(catalogSettings);
  } catch (err) {
    // An India id (or the water/electricity id) equal to another operator's.
    problems.push(
      `INDIA_OPERATOR_IDS / WATER_OPERATOR_ID / ELECTRICITY_OPERATOR_ID: ${(err as Error).message}`,
    );
  }
  if (e.PROVIDER_URL && !e.PROVIDER_TOKEN)
    problems.push("PROVIDER_TOKEN: required when PROVIDER_URL is set");
  if (e.PROVIDER_URL && !e.WEBHOOK_SECRET)
    problems.push("WEBHOOK_SECRET: required when PROVIDER_URL is set");
  // The aggregator's webhooks are signed and encrypted with it: a short one is guessed offline.
  if (e.PROVIDER_URL && e.WEBHOOK_SECRET && e.WEBHOOK_SECRET.length < MIN_WEBHOOK_SECRET_LENGTH)
    problems.push(
      `WEBHOOK_SECRET: must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters when PROVIDER_URL is set`,
    );
  if (e.PROVIDER_URL && !e.BOT_TOKEN && !e.PLAYGROUND)
    problems.push(
      "BOT_TOKEN: required when PROVIDER_URL is set (or set PLAYGROUND=1 to chat with the bot in a browser against that provider, on purpose)",
    );
  if (e.PLAYGROUND && e.BOT_TOKEN)
    problems.push("PLAYGROUND: the playground replaces Telegram; unset BOT_TOKEN or PLAYGROUND");
  if (e.REDIS_SENTINELS && !e.REDIS_SENTINEL_NAME)
    problems.push("REDIS_SENTINEL_NAME: required when REDIS_SENTINELS is set");
  if (e.REDIS_SENTINEL_NAME && !e.REDIS_SENTINELS)
    problems.push("REDIS_SENTINELS: required when REDIS_SENTINEL_NAME is set");
  if (e.REDIS_SENTINEL_PASSWORD && !e.REDIS_SENTINELS)
    problems.push("REDIS_SENTINEL_PASSWORD: only used with REDIS_SENTINELS");
  if (e.REDIS_SENTINELS && e.REDIS_SENTINEL_NAME && e.REDIS_URL) {
    // With Sentinels the URL only carries credentials, database and TLS; its host must name the
    // master group so nobody mistakes it for an address that is dialled.
    const u = new URL(e.REDIS_URL);
    if (u.hostname !== e.REDIS_SENTINEL_NAME || u.port !== "")
      problems.push(
        `REDIS_URL: with REDIS_SENTINELS its host is the master group name and it has no port (e.g. redis://:password@${e.REDIS_SENTINEL_NAME}/0); the Sentinels give the address`,
      );
  }
  if (e.REDIS_CLUSTER_NODES && e.REDIS_SENTINELS)
    problems.push(
      "REDIS_CLUSTER_NODES: not with REDIS_SENTINELS (a Cluster fails over by itself); set one of them",
    );
  if (e.REDIS_CLUSTER_NODES && e.REDIS_WAIT_REPLICAS > 0)
    problems.push(
      "REDIS_WAIT_REPLICAS: not supported with REDIS_CLUSTER_NODES (WAIT must reach the master that took the write; the Cluster client does not promise that)",
    );
  if (e.REDIS_CLUSTER_NODES && e.REDIS_URL) {
    const db = new URL(e.REDIS_URL).pathname.replace(/^\//, "");
    if (db !== "" && db !== "0")
      problems.push(
        "REDIS_URL: with REDIS_CLUSTER_NODES it only carries credentials and TLS, and a Cluster has only database 0",
      );
  }
  if (
    e.PROVIDER_URL &&
    !e.REDIS_URL &&
    !e.REDIS_SENTINELS &&
    !e.REDIS_CLUSTER_NODES &&
    !e.ALLOW_MEMORY_STORES
  )
    problems.push(
      "REDIS_URL: required when PROVIDER_URL is set: orders of a real wallet kept in memory vanish with the process (ALLOW_MEMORY_STORES=1 to accept that)",
    );
  if (e.KHALTI_BASE_URL && !e.KHALTI_SECRET_KEY)
    problems.push("KHALTI_SECRET_KEY: required when KHALTI_BASE_URL is set");
  if (e.KHALTI_SECRET_KEY && !e.KHALTI_BASE_URL)
    problems.push("KHALTI_BASE_URL: required when KHALTI_SECRET_KEY is set");
  if (e.KHALTI_BASE_URL && !e.TOPUP_PUBLIC_URL && !e.PUBLIC_URL)
    problems.push(
      "TOPUP_PUBLIC_URL: required when KHALTI_BASE_URL is set and PUBLIC_URL is not (Khalti sends the payer's browser back there)",
    );
  if (e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    problems.push("METRICS_PORT: must differ from PORT (metrics are never served publicly)");
  const botApi: BotApiPolicy = {
    timeoutMs: e.TELEGRAM_TIMEOUT_MS,
    attempts: e.TELEGRAM_ATTEMPTS,
    maxDelayMs: DEFAULT_BOT_API_POLICY.maxDelayMs,
  };
  const minLockMs = minSendLockMs(botApi);
  if (e.NOTIFY_LOCK_MS !== undefined && e.NOTIFY_LOCK_MS < minLockMs)
    problems.push(
      `NOTIFY_LOCK_MS: must be at least ${minLockMs} (two Bot API calls of TELEGRAM_ATTEMPTS × TELEGRAM_TIMEOUT_MS plus waits, and a margin)`,
    );
  let priceSchedule = DEFAULT_PRICE_SCHEDULE;
  if (e.PRICE_SCHEDULE_FILE) {
    try {
      priceSchedule = readPriceSchedule(e.PRICE_SCHEDULE_FILE);
    } catch (err) {
      if (!(err instanceof PriceScheduleError)) throw err;
      problems.push(...err.problems.map((p) => `PRICE_SCHEDULE_FILE: ${p}`));
    }
  }
  if (problems.length) throw new ConfigError(problems);

  const embeddedSandbox = !e.PROVIDER_URL;
  const playground = !e.BOT_TOKEN;
  // The playground lets anyone who reaches it chat as any demo user: loopback only, unless asked.
  const hostForced = playground && !e.PLAYGROUND_PUBLIC && !isLoopbackHost(e.HOST);
  // The development secret is only ever used against the embedded sandbox; a real provider needs its own.
  const webhookSecret = e.WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET;
  return {
    mode: {
      playground,
      embeddedSandbox,
      /**
       * The whole product runs locally (no PROVIDER_URL, no BOT_TOKEN): only then may a stand-in
       * that impersonates money (the Khalti stand-in) be served. PLAYGROUND=1 against a real
       * provider is not local: a balance credited there is spent at the real aggregator.
       */
      local: embeddedSandbox && playground,
      /** PLAYGROUND_PUBLIC=1: the playground is served on a non-loopback HOST, on purpose. */
      playgroundPublic: playground && e.PLAYGROUND_PUBLIC,
      redis: Boolean(e.REDIS_URL || e.REDIS_SENTINELS || e.REDIS_CLUSTER_NODES),
    },
    http: {
      host: hostForced ? "127.0.0.1" : e.HOST,
      /** Set when HOST was replaced by loopback because the playground runs (PLAYGROUND_PUBLIC unset). */
      hostRefused: hostForced ? e.HOST : undefined,
      port: e.PORT,
      publicUrl: e.PUBLIC_URL,
    },
    metrics: { host: e.METRICS_HOST, port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    bot: {
      token: e.BOT_TOKEN,
      /** Another Bot API server (a local one, or the emulator of another process); Telegram's by default. */
      apiRoot: e.TELEGRAM_API_ROOT,
      agentIds: e.AGENT_IDS,
      adminIds: e.ADMIN_IDS,
      conversationIdleMs: e.CONVERSATION_IDLE_MS,
      sessionTtlSeconds: e.SESSION_TTL_SECONDS,
      dailySpendCapRupees: e.DAILY_SPEND_CAP,
      ordersPerHour: e.ORDERS_PER_HOUR,
      /** Bounds every Bot API call (src/telegram/policy.ts, enforced in src/telegram/api.ts). */
      api: botApi,
      /** Telegram's webhook is answered within this long, the update handled on (webhook-transport.ts). */
      webhookAnswerMs: e.TELEGRAM_WEBHOOK_ANSWER_MS,
    },
    provider: {
      /** Base URL ending in /api/v1; undefined means "the embedded sandbox, filled in at start". */
      baseUrl: e.PROVIDER_URL,
      token: e.PROVIDER_TOKEN ?? e.SANDBOX_TOKEN,
      lookupTimeoutMs: e.PROVIDER_LOOKUP_TIMEOUT_MS,
      executeTimeoutMs: e.PROVIDER_EXECUTE_TIMEOUT_MS,
      maxRetries: e.PROVIDER_MAX_RETRIES,
      paths: {
        indiaExecute: e.PROVIDER_INDIA_EXECUTE_PATH,
        operators: e.PROVIDER_OPERATORS_PATH,
        operatorTypes: e.PROVIDER_OPERATOR_TYPES_PATH,
        indiaOperators: e.PROVIDER_INDIA_OPERATORS_PATH,
        indiaOperatorTypes: e.PROVIDER_INDIA_OPERATOR_TYPES_PATH,
        indiaPlans: e.PROVIDER_INDIA_PLANS_PATH,
        indiaDthBill: e.PROVIDER_INDIA_DTH_BILL_PATH,
      },
      /** UTC offset of the provider's zone-less timestamps (status answers, webhooks). */
      utcOffsetMinutes: e.PROVIDER_UTC_OFFSET_MINUTES,
    },
    webhook: {
      path: e.WEBHOOK_PATH,
      secret: webhookSecret,
      secretIsDevDefault: !e.WEBHOOK_SECRET,
      keyMode: e.WEBHOOK_KEY_MODE,
      maxBodyBytes: e.WEBHOOK_MAX_BODY_BYTES,
      confirmFinalWithStatusQuery: e.WEBHOOK_CONFIRM_FINAL,
    },
    sandbox: {
      token: e.SANDBOX_TOKEN,
      port: e.SANDBOX_PORT,
      /** Standalone sandbox only: the webhook target at start (embedded: our own webhook route). */
      webhookUrl: e.SANDBOX_WEBHOOK_URL,
      delays: { toPendingMs: e.SANDBOX_TO_PENDING_MS, toFinalMs: e.SANDBOX_TO_FINAL_MS },
      rateLimitPerSecond: e.SANDBOX_RATE_LIMIT,
      /** Faults switched on at start, per token (JSON, e.g. {"sandbox-token":{"commitThenDrop":0.3}}). */
      faults: e.SANDBOX_FAULTS,
    },
    redis: {
      url: e.REDIS_URL,
      prefix: e.REDIS_PREFIX,
      /** Set: every connection asks these Sentinels for the primary of `name` (src/redis/connection.ts). */
      sentinel:
        e.REDIS_SENTINELS && e.REDIS_SENTINEL_NAME
          ? {
              sentinels: e.REDIS_SENTINELS,
              name: e.REDIS_SENTINEL_NAME,
              password: e.REDIS_SENTINEL_PASSWORD,
            }
          : undefined,
      /** Set: a Redis Cluster through these seed nodes (src/redis/connection.ts). */
      cluster: e.REDIS_CLUSTER_NODES,
      /** WAIT after the order writes that must not be lost at a failover (src/redis/replication.ts). */
      wait: { replicas: e.REDIS_WAIT_REPLICAS, timeoutMs: e.REDIS_WAIT_TIMEOUT_MS },
    },
    catalog: catalogSettings,
    /** The provider's operator lookups, refreshed this often (provider/catalog-sync.ts); 0: at start only. */
    catalogRefreshMs: e.CATALOG_REFRESH_MS,
    reconciler: {
      intervalMs: e.RECONCILE_INTERVAL_MS,
      minAgeMs: e.RECONCILE_MIN_AGE_MS,
      maxAgeMs: e.RECONCILE_MAX_AGE_MS,
      notFoundGraceMs: e.RECONCILE_NOT_FOUND_GRACE_MS ?? e.PROVIDER_EXECUTE_TIMEOUT_MS,
    },
    notifier: {
      /** Unacknowledged pushes older than this are taken over (a crashed or stuck process). */
      claimIdleMs: e.NOTIFY_CLAIM_IDLE_MS,
      /** One process at a time sends a given push; the lock outlives its Bot API calls (checked above). */
      lockMs: e.NOTIFY_LOCK_MS ?? Math.max(60_000, minLockMs),
    },
    pricing: {
      scheduleFile: e.PRICE_SCHEDULE_FILE,
      schedule: priceSchedule,
      /** NPR per 1 INR in ten-thousandths (INR_TO_NPR_RATE "1.6" -> 16000). */
      inrToNprRateE4: e.INR_TO_NPR_RATE,
    },
    accessMode: e.ACCESS_MODE,
    books: {
      lowFloatAlertPaisa: e.LOW_FLOAT_ALERT * 100,
      checkIntervalMs: e.BOOKS_CHECK_INTERVAL_MS,
      driftTolerancePaisa: e.BOOKS_DRIFT_TOLERANCE * 100,
    },
    topUp: {
      /** Unset: the local stand-in (local mode only); without local mode, no top-ups. */
      khalti: e.KHALTI_BASE_URL
        ? { baseUrl: e.KHALTI_BASE_URL, secretKey: e.KHALTI_SECRET_KEY ?? "" }
        : undefined,
      timeoutMs: e.KHALTI_TIMEOUT_MS,
      /** Unset in local mode: the server's own URL. */
      publicUrl: e.TOPUP_PUBLIC_URL ?? e.PUBLIC_URL,
      maxRupees: e.TOPUP_MAX_AMOUNT,
      dailyCapRupees: e.TOPUP_DAILY_CAP,
      lookupIntervalMs: e.TOPUP_LOOKUP_INTERVAL_MS,
      refundWatchMs: e.TOPUP_REFUND_WATCH_MS,
      refundCheckMs: e.TOPUP_REFUND_CHECK_MS,
    },
    /** Staff mode: who may order besides agents and admins (STAFF_IDS). */
    staffIds: e.STAFF_IDS,
    logLevel: e.LOG_LEVEL,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** Development-only webhook secret of the embedded sandbox; printed at start so a developer can decrypt by hand. */
export const DEV_WEBHOOK_SECRET = "dev-webhook-secret-change-me";

/** The values that must never appear in a log line or a chat message. */
export function secretsOf(config: Config): string[] {
  return [
    config.bot.token,
    config.provider.token,
    config.webhook.secret,
    config.metrics.token,
    config.redis.sentinel?.password,
    config.topUp.khalti?.secretKey,
  ].filter((s): s is string => typeof s === "string" && s.length >= 6);
}
