import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/index.ts";
import { TOPUP_RETURN_PATH } from "../../src/system/top-up.ts";
import { ROOT } from "../support/chaos/env.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * The deploy files (compose.yaml, .env.example, deploy/Caddyfile, deploy/prometheus/*) checked
 * against the product, since no Docker, Caddy or promtool runs here: they parse, the variables
 * they name are the product's, a filled-in .env.example starts the configuration, Caddy forwards
 * exactly the paths the outside world calls, and every metric an alert rule names is one the
 * product exports (a real scrape).
 */

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
// biome-ignore lint/suspicious/noExplicitAny: compose's shape is checked field by field below.
const compose = parse(read("compose.yaml")) as any;

/** The variables src/config/ reads (the keys of its concerns' environment schemas). */
const CONFIG_VARS = new Set(
  readdirSync(join(ROOT, "src/config")).flatMap((file) =>
    [...read(`src/config/${file}`).matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(
      (m) => m[1] as string,
    ),
  ),
);
/** Read by compose.yaml (and its Caddy, Redis, Prometheus), not by the app. */
const COMPOSE_ONLY = new Set(["DOMAIN", "REDIS_PASSWORD"]);

function envExample(): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of read(".env.example").split("\n")) {
    const m = /^#?\s?([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) vars.set(m[1] as string, m[2] as string);
  }
  return vars;
}
const activeEnvExample = () =>
  new Map(
    read(".env.example")
      .split("\n")
      .filter((l) => /^[A-Z]/.test(l))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)] as [string, string]),
  );

/** compose's ${VAR}, ${VAR:-default}, ${VAR:?message} against `env`. */
function interpolate(value: string, env: Map<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_m, name, op, arg) => {
    const v = env.get(name) ?? "";
    if (v !== "") return v;
    if (op === "?") throw new Error(`compose refuses: ${arg}`);
    return op === "-" ? arg : "";
  });
}

const FILLED: Record<string, string> = {
  DOMAIN: "bot.example.com",
  PUBLIC_URL: "https://bot.example.com",
  BOT_TOKEN: "123456789:AAExampleExampleExampleExample",
  ADMIN_IDS: "5551234",
  AGENT_IDS: "5555678",
  PROVIDER_URL: "https://aggregator.example.com/api/v1",
  PROVIDER_TOKEN: "token-from-the-aggregator",
  WEBHOOK_SECRET: "secret-from-the-aggregator",
  REDIS_PASSWORD: "0123456789abcdef0123456789abcdef",
  METRICS_TOKEN: "fedcba9876543210fedcba9876543210",
};

/** The app's environment as compose gives it: .env, then its `environment:` interpolated. */
function appEnv(dotenv: Map<string, string>): Record<string, string> {
  const env: Record<string, string> = Object.fromEntries(dotenv);
  for (const [k, v] of Object.entries(compose.services.app.environment as Record<string, string>)) {
    env[k] = interpolate(String(v), dotenv);
  }
  return env;
}

describe("compose.yaml", () => {
  const s = compose.services;
  it("runs Caddy in front, the app behind it, Redis with a password and AOF", () => {
    expect(Object.keys(s).sort()).toEqual(["app", "caddy", "prometheus", "redis", "redis-tools"]);
    expect(s.caddy.ports).toEqual(["80:80", "443:443", "443:443/udp"]);
    expect(s.caddy.volumes).toContain("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro");
    expect(s.app.init).toBe(true);
    // Nothing of the app or Redis is published beyond loopback.
    expect(s.app.ports).toEqual(["127.0.0.1:8080:8080"]);
    expect(s.redis.ports).toBeUndefined();
    expect(s.app.environment.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN:\?/);
    expect(s.app.environment.REDIS_URL).toMatch(
      /^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]*\}@redis:6379$/,
    );
    const redis = s.redis.command.join(" ");
    expect(redis).toContain('--requirepass "$$REDIS_PASSWORD"');
    expect(redis).toContain("--appendonly yes --appendfsync always");
    expect(redis).toContain("--maxmemory-policy noeviction");
    expect(s.redis.volumes).toContain("redis-data:/data");
    expect(compose.networks.backend.internal).toBe(true);
    expect(s.redis.networks).toEqual(["backend"]);
  });

  it("keeps Prometheus and the backup tools behind profiles, on files that exist", () => {
    expect(s.prometheus.profiles).toEqual(["monitoring"]);
    expect(s["redis-tools"].profiles).toEqual(["tools"]);
    for (const svc of [s.caddy, s.prometheus, s["redis-tools"]]) {
      for (const v of svc.volumes as string[]) {
        if (v.startsWith("./") && !v.startsWith("./backups")) {
          expect(() => read(v.slice(2, v.indexOf(":")))).not.toThrow();
        }
      }
    }
  });

  it("names only variables .env.example explains", () => {
    const named = [...read("compose.yaml").matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]);
    const explained = envExample();
    for (const v of new Set(named)) expect(explained.has(v as string), v).toBe(true);
  });
});

describe(".env.example", () => {
  it("names only variables the product or compose reads", () => {
    for (const name of envExample().keys()) {
      expect(CONFIG_VARS.has(name) || COMPOSE_ONLY.has(name), name).toBe(true);
    }
    for (const name of COMPOSE_ONLY) expect(read("compose.yaml")).toContain(`\${${name}`);
  });

  it("has every variable a production deploy needs", () => {
    const active = activeEnvExample();
    for (const name of [
      "BOT_TOKEN",
      "PROVIDER_URL",
      "PROVIDER_TOKEN",
      "WEBHOOK_SECRET",
      "PUBLIC_URL",
      "ADMIN_IDS",
      "METRICS_TOKEN",
      "REDIS_PASSWORD",
      "DOMAIN",
    ]) {
      expect(active.has(name), name).toBe(true);
    }
    // The app's Redis, metrics port and token come from compose itself.
    const env = appEnv(new Map([...active, ...Object.entries(FILLED)]));
    expect(Object.keys(env)).toEqual(expect.arrayContaining(["REDIS_URL", "METRICS_TOKEN"]));
  });

  it("filled in, it is a valid production configuration", () => {
    const env = appEnv(new Map([...activeEnvExample(), ...Object.entries(FILLED)]));
    const config = loadConfig(env);
    expect(config.provider.baseUrl).toBe(FILLED.PROVIDER_URL);
    expect(config.metrics.token).toBe(FILLED.METRICS_TOKEN);
    expect(config.redis.url).toBe(`redis://:${FILLED.REDIS_PASSWORD}@redis:6379`);
    expect(config.http.publicUrl).toBe(FILLED.PUBLIC_URL);
    expect(config.metrics.host).toBe("0.0.0.0");
  });

  it("as it comes, nothing secret is filled in: compose or the start refuses", () => {
    const active = activeEnvExample();
    expect(() => appEnv(active)).toThrow(/compose refuses/);
    // The aggregator's values filled in but the bot token forgotten: the start names it.
    const half = new Map([
      ...active,
      ["REDIS_PASSWORD", "x"],
      ["METRICS_TOKEN", "y"],
      ["PROVIDER_URL", "https://aggregator.example.com/api/v1"],
      ["PROVIDER_TOKEN", "t"],
      ["WEBHOOK_SECRET", "s"],
    ]);
    expect(() => loadConfig(appEnv(half))).toThrow(/BOT_TOKEN/);
  });
});

describe("deploy/Caddyfile", () => {
  const caddy = read("deploy/Caddyfile");
  it("forwards exactly the provider webhook, Telegram's and WhatsApp's webhooks and Khalti's return", () => {
    const matchers = [...caddy.matchAll(/^\s*@\w+ path (.+)$/gm)].map((m) => m[1]?.trim());
    const webhookPath = loadConfig({}).webhook.path;
    expect(matchers).toEqual([
      `{$WEBHOOK_PATH:${webhookPath}} {$WEBHOOK_PATH:${webhookPath}}/`,
      "/telegram-webhook/*",
      "{$WHATSAPP_WEBHOOK_PATH:/webhooks/whatsapp} {$WHATSAPP_WEBHOOK_PATH:/webhooks/whatsapp}/",
      `${TOPUP_RETURN_PATH} ${TOPUP_RETURN_PATH}/`,
    ]);
    // The Telegram path is where the product mounts it.
    expect(read("src/system/start.ts")).toMatch(/`\/telegram-webhook\/\$\{tokenHash/);
    // Each forward goes to the app's port; anything else is 404.
    const proxies = [...caddy.matchAll(/reverse_proxy (\S+)/g)].map((m) => m[1]);
    expect(proxies).toEqual(["app:8080", "app:8080", "app:8080", "app:8080"]);
    expect(compose.services.app.environment.PORT).toBe("8080");
    expect(caddy).toMatch(/handle \{\s*respond 404\s*\}/);
    const directives = caddy.split("\n").filter((l) => !l.trim().startsWith("#"));
    expect(directives.join("\n")).not.toContain("9464");
  });
});

describe("Prometheus: its configuration and alert rules", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis: true, env: { METRICS_TOKEN: "deploy-files" } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  // biome-ignore lint/suspicious/noExplicitAny: the rule file's shape is checked below.
  const rules = parse(read("deploy/prometheus/alerts.yml")) as any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const prom = parse(read("deploy/prometheus/prometheus.yml")) as any;

  it("scrapes the app's metrics port with the token compose writes", () => {
    const job = prom.scrape_configs[0];
    expect(job.static_configs[0].targets).toEqual([
      `app:${compose.services.app.environment.METRICS_PORT}`,
    ]);
    expect(job.authorization.credentials_file).toBe("/prometheus/metrics-token");
    expect(compose.services.prometheus.entrypoint.join(" ")).toContain(
      "> /prometheus/metrics-token",
    );
    expect(prom.rule_files).toEqual(["/etc/prometheus/alerts.yml"]);
    expect(compose.services.prometheus.volumes).toContain(
      "./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro",
    );
  });

  it("has the project's own alerts, each on metrics the product exports", async () => {
    const list = rules.groups.flatMap((g: { rules: unknown[] }) => g.rules) as Array<{
      alert: string;
      expr: string;
    }>;
    const names = list.map((r) => r.alert);
    for (const a of [
      "RechargeLowFloat",
      "RechargeStuckOrders",
      "RechargeBooksDrift",
      "RechargePushesFailing",
      "RechargeQueueLag",
    ]) {
      expect(names).toContain(a);
    }
    const res = await fetch(ts.system.metricsUrl, {
      headers: { authorization: "Bearer deploy-files" },
    });
    const scrape = await res.text();
    const exported = new Set(
      [...scrape.matchAll(/^# TYPE (\S+) (\w+)$/gm)].flatMap((m) => {
        const [name, type] = [m[1] as string, m[2] as string];
        return type === "histogram" ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name];
      }),
    );
    const PROMQL = new Set([
      "and",
      "or",
      "unless",
      "by",
      "without",
      "on",
      "ignoring",
      "sum",
      "rate",
      "increase",
      "histogram_quantile",
      "time",
      "le",
      "max",
      "min",
      "avg",
      "count",
    ]);
    for (const rule of list) {
      // Metric names: identifiers not inside label matchers, quotes or durations.
      const bare = rule.expr
        .replace(/\{[^}]*\}/g, "")
        .replace(/"[^"]*"/g, "")
        .replace(/\[[^\]]*\]/g, "");
      const metrics = [...bare.matchAll(/[a-z_:][a-z0-9_:]*/g)]
        .map((m) => m[0])
        .filter((w) => !PROMQL.has(w));
      expect(metrics.length, rule.alert).toBeGreaterThan(0);
      for (const m of metrics) {
        if (m === "up") continue; // Prometheus's own, per target
        expect(exported.has(m), `${rule.alert}: ${m}`).toBe(true);
      }
    }
  });
});
