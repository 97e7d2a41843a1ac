import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { loadConfig, secretsOf } from "../../src/config/index.ts";
import { createLogger } from "../../src/logger.ts";
import { createSandbox } from "./index.ts";
import { loadSandboxSettings } from "./settings.ts";

/**
 * `npm run sandbox`: the sandbox aggregator alone at http://127.0.0.1:SANDBOX_PORT/api/v1.
 * Settings from loadConfig: SANDBOX_TOKEN, WEBHOOK_SECRET and the catalogue options; from the
 * sandbox's own settings (settings.ts): SANDBOX_PORT and SANDBOX_WEBHOOK_URL (webhook target at start), SANDBOX_FAULTS (JSON token ->
 * faults) and SANDBOX_TO_PENDING_MS / SANDBOX_TO_FINAL_MS / SANDBOX_RATE_LIMIT.
 */

function main(): void {
  const config = loadConfig();
  const settings = loadSandboxSettings(process.env);
  const webhookUrl = settings.webhookUrl;
  const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  const token = config.sandbox.token;
  const secret = config.webhook.secret;

  const sandbox = createSandbox({
    accounts: [
      {
        token,
        ...(webhookUrl ? { webhook: { url: webhookUrl, secret } } : {}),
      },
    ],
    delays: settings.delays,
    rateLimitPerSecond: settings.rateLimitPerSecond,
    ...config.catalog,
    faults: settings.faults,
    logger,
  });

  const root = new Hono();
  root.route("/api/v1", sandbox.app);
  root.get("/", (c) => c.redirect("/api/v1/np/operators"));

  const server = serve(
    { fetch: root.fetch, port: settings.port, hostname: "127.0.0.1" },
    (info) => {
      const base = `http://127.0.0.1:${info.port}/api/v1`;
      // Printed on purpose: this is a local sandbox, and a developer needs these to point a client at it.
      process.stdout.write(
        [
          "Sandbox aggregator listening",
          `  base URL        ${base}`,
          `  x-auth-token    ${token}`,
          `  webhook secret  ${secret}${config.webhook.secretIsDevDefault ? " (development default)" : ""}`,
          `  webhook URL     ${webhookUrl ?? `(none; PUT ${base}/_sandbox/webhook)`}`,
          `  admin API       ${base}/_sandbox (header x-admin-token: ${sandbox.adminToken === token ? "the token above" : "set"})`,
          "",
        ].join("\n"),
      );
    },
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "sandbox stopping");
    sandbox.close();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main();
