import { ConfigError, loadConfig } from "./config.ts";
import { startSystem } from "./system.ts";

/**
 * Entry point of `npm start`: read the configuration, start everything (src/system.ts is the
 * composition root), stop gracefully on SIGTERM and SIGINT.
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const system = await startSystem({ config });
  const { logger } = system;
  if (config.mode.embeddedSandbox) {
    logger.info(
      { sandbox: `${system.url}/sandbox/api/v1`, token: "see SANDBOX_TOKEN" },
      config.webhook.secretIsDevDefault
        ? "embedded sandbox; development webhook secret in use (set WEBHOOK_SECRET to change it)"
        : "embedded sandbox",
    );
  }
  const where = config.mode.playground ? `${system.url}/` : `${system.url}/healthz`;
  process.stdout.write(
    config.mode.playground
      ? `\nRecharge assistant is running: open ${where} to chat with the bot (no Telegram token needed).\n\n`
      : `\nRecharge assistant is running on ${where}\n\n`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    await system.stop().catch((err) => logger.error({ err: String(err) }, "shutdown failed"));
    logger.flush();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

void main();
