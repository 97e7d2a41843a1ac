import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ConfigError, DEV_WEBHOOK_SECRET, loadConfig, secretsOf } from "../../src/config/index.ts";
import { createLogger } from "../../src/logger.ts";
import { samePersonOf } from "../../src/orders/settle.ts";

describe("config", () => {
  it("needs nothing: playground, embedded sandbox, memory stores", () => {
    const c = loadConfig({});
    expect(c.mode).toEqual({
      playground: true,
      embeddedSandbox: true,
      local: true,
      playgroundPublic: false,
      redis: false,
    });
    expect(c.http.port).toBe(8080);
    expect(c.webhook.secret).toBe(DEV_WEBHOOK_SECRET);
    expect(c.webhook.path).toBe("/webhooks/provider");
    expect(c.catalog.ntcMobileMaxAmount).toBe(3000);
  });

  it("ADMIN_IDS joins one person's chats with = (maker-checker counts people, not chats)", () => {
    const c = loadConfig({ ADMIN_IDS: "7101=wa:+9779841000001, 7102,7101" });
    const wa = c.adminPeople[0]?.[1];
    expect(wa).toBeTypeOf("number");
    expect(c.bot.adminIds).toEqual([7101, wa, 7102]);
    expect(c.adminPeople).toEqual([[7101, wa], [7102], [7101]]);
    expect(c.reconciler.settleEnabled).toBe(false);
    expect(loadConfig({ SETTLE_ENABLED: "true" }).reconciler.settleEnabled).toBe(true);
    // 7101 listed again, alone or with another chat: still one person with its WhatsApp.
    const same = samePersonOf([...c.adminPeople, [7103, 7101]]);
    expect([same(7101, wa ?? 0), same(wa ?? 0, 7103), same(7101, 7102)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(() => loadConfig({ ADMIN_IDS: "7101=abc" })).toThrow(/one person's joined by "="/);
  });

  it("parses lists, numbers and URLs", () => {
    const c = loadConfig({
      BOT_TOKEN: "123:abc",
      PROVIDER_URL: "https://provider.example/api/v1/",
      PROVIDER_TOKEN: "tok-123456",
      WEBHOOK_SECRET: "sec-1234567890abcdef",
      AGENT_IDS: "1, 2,3",
      ADMIN_IDS: "",
      PORT: "9000",
      METRICS_PORT: "9100",
      REDIS_URL: "redis://127.0.0.1:6379/0",
    });
    expect(c.mode).toEqual({
      playground: false,
      embeddedSandbox: false,
      local: false,
      playgroundPublic: false,
      redis: true,
    });
    expect(c.provider.baseUrl).toBe("https://provider.example/api/v1");
    expect(c.bot.agentIds).toEqual([1, 2, 3]);
    expect(c.bot.adminIds).toEqual([]);
    expect(c.http.port).toBe(9000);
    expect(c.metrics).toEqual({ host: "127.0.0.1", port: 9100, token: undefined });
  });

  const problemsOf = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    return "";
  };

  it.each([
    ["PORT", "99999"],
    ["PORT", "-1"],
    ["PORT", "80.5"],
    ["METRICS_PORT", "65536"],
    ["HOST", "999.1.1.1"],
    ["HOST", "not a host"],
    ["HOST", "exa_mple..com"],
    ["METRICS_HOST", "1.2.3"],
    ["PUBLIC_URL", "ftp://bot.example"],
    ["TELEGRAM_API_ROOT", "not a url"],
    ["REDIS_URL", "http://127.0.0.1:6379"],
    ["PROVIDER_INDIA_EXECUTE_PATH", "in/recharge/execute"],
    ["ADMIN_IDS", "12,abc"],
    ["PLAYGROUND", "maybe"],
  ])("refuses %s=%s, naming the variable", (name, value) => {
    expect(problemsOf({ [name]: value })).toMatch(new RegExp(`^  - ${name}: `, "m"));
  });

  it.each([["0.0.0.0"], ["::"], ["::1"], ["localhost"], ["bot.internal"], ["10.0.0.5"]])(
    "accepts HOST=%s",
    (host) => {
      expect(loadConfig({ HOST: host, PLAYGROUND_PUBLIC: "1" }).http.host).toBe(host);
    },
  );

  it("never serves metrics on the public port", () => {
    expect(problemsOf({ PORT: "9000", METRICS_PORT: "9000" })).toContain("METRICS_PORT");
    expect(loadConfig({ PORT: "0", METRICS_PORT: "0" }).metrics.port).toBe(0);
  });

  it.each([["0.0.0.0"], ["::"], ["203.0.113.7"], ["metrics.internal"]])(
    "refuses METRICS_HOST=%s without METRICS_TOKEN (the books and the journal to anyone), in one line",
    (host) => {
      const message = problemsOf({ METRICS_HOST: host });
      expect(message).toMatch(
        new RegExp(
          `^  - METRICS_TOKEN: required when METRICS_HOST \\(${host.replace(/\./g, "\\.")}\\) is not loopback: .*METRICS_PUBLIC_WITHOUT_TOKEN=1`,
          "m",
        ),
      );
      expect(message.split("\n")).toHaveLength(2);
      expect(loadConfig({ METRICS_HOST: host, METRICS_TOKEN: "t0ken-for-books" }).metrics).toEqual({
        host,
        port: 9464,
        token: "t0ken-for-books",
      });
      expect(
        loadConfig({ METRICS_HOST: host, METRICS_PUBLIC_WITHOUT_TOKEN: "1" }).metrics.host,
      ).toBe(host);
    },
  );

  it.each([["127.0.0.1"], ["127.0.0.9"], ["::1"], ["localhost"]])(
    "serves the metrics on METRICS_HOST=%s (loopback) without a token",
    (host) => {
      expect(loadConfig({ METRICS_HOST: host }).metrics.token).toBeUndefined();
    },
  );

  it("reads the notifier's and reconciler's timings, the grace defaulting to the execute timeout", () => {
    const d = loadConfig({ PROVIDER_EXECUTE_TIMEOUT_MS: "12000" });
    expect(d.notifier).toEqual({ claimIdleMs: 30_000, lockMs: 60_000, retryForMs: 21_600_000 });
    expect(d.reconciler.notFoundGraceMs).toBe(12_000);
    const c = loadConfig({
      NOTIFY_CLAIM_IDLE_MS: "5000",
      NOTIFY_LOCK_MS: "90000",
      NOTIFY_RETRY_FOR_MS: "3600000",
      RECONCILE_NOT_FOUND_GRACE_MS: "1000",
    });
    expect(c.notifier).toEqual({ claimIdleMs: 5000, lockMs: 90_000, retryForMs: 3_600_000 });
    expect(c.reconciler.notFoundGraceMs).toBe(1000);
    expect(() => loadConfig({ NOTIFY_CLAIM_IDLE_MS: "10" })).toThrow(/NOTIFY_CLAIM_IDLE_MS/);
    // A grace of 0 made the send window 0: almost every execute was skipped (review s20-r1, 4).
    for (const grace of ["0", "999"]) {
      expect(() => loadConfig({ RECONCILE_NOT_FOUND_GRACE_MS: grace })).toThrow(
        /RECONCILE_NOT_FOUND_GRACE_MS.*at least 1000/s,
      );
    }
    expect(() => loadConfig({ NOTIFY_RETRY_FOR_MS: "1000" })).toThrow(/NOTIFY_RETRY_FOR_MS/);
  });

  // Review s22, finding 1: one "not found" 60 s after the send voided an order's hold.
  it("reads how many 'not found' answers over how long fail an unknown order: 3 over 30 min", () => {
    const d = loadConfig({});
    expect(d.reconciler).toMatchObject({ notFoundAnswers: 3, notFoundWindowMs: 1_800_000 });
    const c = loadConfig({
      RECONCILE_NOT_FOUND_ANSWERS: "5",
      RECONCILE_NOT_FOUND_WINDOW_MS: "3600000",
    });
    expect(c.reconciler).toMatchObject({ notFoundAnswers: 5, notFoundWindowMs: 3_600_000 });
    expect(() => loadConfig({ RECONCILE_NOT_FOUND_ANSWERS: "1" })).toThrow(
      /RECONCILE_NOT_FOUND_ANSWERS/,
    );
    expect(() => loadConfig({ RECONCILE_NOT_FOUND_ANSWERS: "21" })).toThrow(
      /RECONCILE_NOT_FOUND_ANSWERS/,
    );
    expect(() => loadConfig({ RECONCILE_NOT_FOUND_WINDOW_MS: "999" })).toThrow(
      /RECONCILE_NOT_FOUND_WINDOW_MS/,
    );
  });

  it("reads ACCESS_MODE: prepaid by default, staff when asked, the old open refused by name", () => {
    expect(loadConfig({}).accessMode).toBe("prepaid");
    expect(loadConfig({ ACCESS_MODE: "staff" }).accessMode).toBe("staff");
    expect(() => loadConfig({ ACCESS_MODE: "everyone" })).toThrow(/ACCESS_MODE/);
    expect(() => loadConfig({ ACCESS_MODE: "open" })).toThrow(/ACCESS_MODE=open was transitional/);
    expect(loadConfig({ STAFF_IDS: "5, 6" }).staffIds).toEqual([5, 6]);
    expect(() => loadConfig({ STAFF_IDS: "5,x" })).toThrow(/STAFF_IDS/);
  });

  it("names every bad variable", () => {
    try {
      loadConfig({ PORT: "eighty", AGENT_IDS: "1,bob", PROVIDER_URL: "https://x.example/v2" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      expect(msg).toContain("PORT");
      expect(msg).toContain("AGENT_IDS");
      expect(msg).toContain("PROVIDER_URL");
    }
  });

  const realProvider = {
    PROVIDER_URL: "https://p.example/api/v1",
    PROVIDER_TOKEN: "tok-123456",
    WEBHOOK_SECRET: "sec-1234567890abcdef",
    REDIS_URL: "redis://127.0.0.1:6379",
  };

  it("refuses a real provider without a bot token unless PLAYGROUND=1 says so", () => {
    // Else anyone with the URL could chat as the demo admin against the real aggregator.
    const msg = problemsOf(realProvider);
    expect(msg).toContain("BOT_TOKEN");
    expect(msg).toContain("PLAYGROUND=1");
    const c = loadConfig({ ...realProvider, PLAYGROUND: "1" });
    expect(c.mode).toEqual({
      playground: true,
      embeddedSandbox: false,
      local: false,
      playgroundPublic: false,
      redis: true,
    });
    expect(problemsOf({ ...realProvider, BOT_TOKEN: "1:x", PLAYGROUND: "1" })).toContain(
      "PLAYGROUND",
    );
  });

  it("keeps the playground on loopback unless PLAYGROUND_PUBLIC=1", () => {
    const local = loadConfig({ HOST: "0.0.0.0" });
    expect(local.http.host).toBe("127.0.0.1");
    expect(local.http.hostRefused).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "::1" }).http.host).toBe("::1");
    expect(loadConfig({ HOST: "0.0.0.0", PLAYGROUND_PUBLIC: "1" }).http.host).toBe("0.0.0.0");
    // With a bot token there is no playground: HOST is taken as given.
    expect(loadConfig({ HOST: "0.0.0.0", BOT_TOKEN: "1:x" }).http.host).toBe("0.0.0.0");
  });

  it("refuses a real provider with memory stores unless ALLOW_MEMORY_STORES=1", () => {
    const { REDIS_URL: _, ...noRedis } = { ...realProvider, BOT_TOKEN: "1:x" };
    expect(problemsOf(noRedis)).toContain("REDIS_URL");
    expect(loadConfig({ ...noRedis, ALLOW_MEMORY_STORES: "1" }).mode.redis).toBe(false);
  });

  it("requires the provider token and webhook secret with a real provider", () => {
    expect(() => loadConfig({ PROVIDER_URL: "https://p.example/api/v1" })).toThrow(
      /PROVIDER_TOKEN[\s\S]*WEBHOOK_SECRET/,
    );
  });
  describe("Redis Sentinel", () => {
    const sentinel = {
      ...realProvider,
      BOT_TOKEN: "1:x",
      REDIS_URL: "",
      REDIS_SENTINELS: "10.0.0.1:26379, sentinel-b.internal:26380,[::1]:26381",
      REDIS_SENTINEL_NAME: "mymaster",
    };

    it("parses the Sentinels and counts as Redis without REDIS_URL", () => {
      const c = loadConfig({ ...sentinel, REDIS_SENTINEL_PASSWORD: "sentinel-pass-1" });
      expect(c.mode.redis).toBe(true);
      expect(c.redis.sentinel).toEqual({
        sentinels: [
          { host: "10.0.0.1", port: 26379 },
          { host: "sentinel-b.internal", port: 26380 },
          { host: "::1", port: 26381 },
        ],
        name: "mymaster",
        password: "sentinel-pass-1",
      });
      expect(c.redis.wait).toEqual({ replicas: 0, timeoutMs: 1_000 });
      expect(secretsOf(c)).toContain("sentinel-pass-1");
    });

    it("names the variable that is wrong", () => {
      expect(problemsOf({ ...sentinel, REDIS_SENTINELS: "10.0.0.1" })).toMatch(/REDIS_SENTINELS: /);
      expect(problemsOf({ ...sentinel, REDIS_SENTINELS: "a:0" })).toMatch(/REDIS_SENTINELS: /);
      expect(problemsOf({ ...sentinel, REDIS_SENTINEL_NAME: "" })).toContain(
        "REDIS_SENTINEL_NAME: required",
      );
      const { REDIS_SENTINELS: _, ...nameOnly } = sentinel;
      expect(problemsOf(nameOnly)).toContain("REDIS_SENTINELS: required");
      expect(problemsOf({ ...sentinel, REDIS_WAIT_REPLICAS: "-1" })).toMatch(/REDIS_WAIT_REPLICAS/);
    });

    it("takes only credentials and database from REDIS_URL, whose host is the group name", () => {
      const c = loadConfig({ ...sentinel, REDIS_URL: "redis://:pw-123456@mymaster/2" });
      expect(c.redis.url).toBe("redis://:pw-123456@mymaster/2");
      expect(problemsOf({ ...sentinel, REDIS_URL: "redis://10.0.0.5:6379" })).toContain(
        "REDIS_URL: with REDIS_SENTINELS",
      );
    });
  });
  describe("Redis Cluster", () => {
    const cluster = {
      ...realProvider,
      BOT_TOKEN: "1:x",
      REDIS_URL: "",
      REDIS_CLUSTER_NODES: "10.0.0.1:7000,10.0.0.2:7000",
    };

    it("parses the seed nodes and counts as Redis without REDIS_URL", () => {
      const c = loadConfig(cluster);
      expect(c.mode.redis).toBe(true);
      expect(c.redis.cluster).toEqual([
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7000 },
      ]);
    });

    it("refuses what a Cluster cannot honour, naming the variable", () => {
      expect(problemsOf({ ...cluster, REDIS_CLUSTER_NODES: "10.0.0.1" })).toMatch(
        /REDIS_CLUSTER_NODES: /,
      );
      expect(
        problemsOf({ ...cluster, REDIS_SENTINELS: "10.0.0.9:26379", REDIS_SENTINEL_NAME: "m" }),
      ).toContain("REDIS_CLUSTER_NODES: not with REDIS_SENTINELS");
      expect(problemsOf({ ...cluster, REDIS_WAIT_REPLICAS: "1" })).toContain(
        "REDIS_WAIT_REPLICAS: not supported with REDIS_CLUSTER_NODES",
      );
      expect(problemsOf({ ...cluster, REDIS_URL: "redis://:pw-123456@x/3" })).toContain(
        "a Cluster has only database 0",
      );
      expect(loadConfig({ ...cluster, REDIS_URL: "redis://:pw-123456@x" }).redis.url).toBe(
        "redis://:pw-123456@x",
      );
    });
  });
});

describe("logger", () => {
  it("never writes a configured secret, by path or by value", () => {
    const config = loadConfig({
      BOT_TOKEN: "123456:SECRET-bot-token",
      WEBHOOK_SECRET: "whsec-abcdef-123456",
    });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = createLogger({ secrets: secretsOf(config), destination: sink });
    log.info({ headers: { "x-auth-token": "sandbox-token" } }, "request");
    log.info({ token: "anything" }, "token field");
    log.error(
      new Error("GET https://api.telegram.org/bot123456:SECRET-bot-token/getMe failed"),
      "oops",
    );
    log.info({ url: "x", note: "the secret is whsec-abcdef-123456" }, "inline");
    const all = lines.join("");
    expect(lines).toHaveLength(4);
    expect(all).not.toContain("SECRET-bot-token");
    expect(all).not.toContain("whsec-abcdef-123456");
    expect(all).not.toContain("sandbox-token");
    expect(all).toContain("[redacted]");
  });

  it("never writes a secret that JSON escapes (a quote, a backslash, a tab)", () => {
    const metricsToken = 'metr"ic\\tok3n-1';
    const webhookSecret = 'whsec\tquoted"-abcdef-123456';
    const config = loadConfig({ METRICS_TOKEN: metricsToken, WEBHOOK_SECRET: webhookSecret });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = createLogger({ secrets: secretsOf(config), destination: sink });
    log.error({ err: { message: `Bearer ${metricsToken} refused` } }, "metrics");
    log.warn(`decrypting with ${webhookSecret} failed`);
    expect(lines).toHaveLength(2);
    // A reader of the log parses the line: the secret must not come back there, nor be written escaped.
    const parsed = lines.map((l) => JSON.parse(l) as { err?: { message: string }; msg: string });
    expect(parsed[0]?.err?.message).toBe("Bearer [redacted] refused");
    expect(parsed[1]?.msg).toBe("decrypting with [redacted] failed");
    for (const secret of [metricsToken, webhookSecret])
      expect(lines.join("")).not.toContain(JSON.stringify(secret).slice(1, -1));
  });

  it("lists REDIS_URL's password among the secrets, as written and as sent", () => {
    const config = loadConfig({ REDIS_URL: "redis://app:p%40ss-w0rd-9@cache.internal:6379/0" });
    expect(secretsOf(config)).toContain("p@ss-w0rd-9");
    expect(secretsOf(config)).toContain("p%40ss-w0rd-9");
  });
});
