import { type Config, ConfigError, loadConfig, secretsOf } from "./config.ts";
import type { Logger } from "./logger.ts";
import { type System, startSystem } from "./system.ts";

/**
 * Entry point of `npm start` and of the image: read the configuration, start everything
 * (src/system.ts is the composition root), stop gracefully on SIGTERM and SIGINT.
 */

/**
 * The whole shutdown is bounded below Docker's 10 s grace period (then SIGKILL, logs lost). An
 * execute or status query still in flight is not waited for (an execute may take 30 s): its order
 * stays "submitting" or "unknown" in the store and the reconciler of the next process settles it
 * from the aggregator's status.
 */
const SHUTDOWN_DEADLINE_MS = 8_000;

let config: Config | undefined;
let system: System | undefined;
let stopSignal: string | undefined;

/** Secret values are cut out of a message before it reaches stderr (an error may quote a URL). */
function scrub(text: string): string {
  let out = text;
  for (const s of config ? secretsOf(config) : []) out = out.split(s).join("[redacted]");
  return out;
}

/** Exits with one line on stderr and no stack: an operator reads it in `docker logs`. */
function fail(what: string, err: unknown, code: number): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(
    `${what}: ${scrub(message)
      .replace(/\s*\n\s*/g, " ")
      .trim()}\n`,
  );
  process.exit(code);
}

function exit(logger: Logger | undefined): never {
  logger?.flush();
  process.exit(0);
}

/** SIGTERM/SIGINT: from here on the process has at most SHUTDOWN_DEADLINE_MS to live. */
function onSignal(signal: string): void {
  if (stopSignal) return;
  stopSignal = signal;
  setTimeout(() => {
    system?.logger.warn(
      { deadlineMs: SHUTDOWN_DEADLINE_MS },
      "shutdown deadline reached; work still in flight is left to the reconciler",
    );
    exit(system?.logger);
  }, SHUTDOWN_DEADLINE_MS);
  // During the start, main() stops the system as soon as startSystem returns (or the deadline hits).
  if (system) void stop(system, signal);
}

async function stop(running: System, signal: string): Promise<void> {
  const { logger } = running;
  logger.info({ signal, deadlineMs: SHUTDOWN_DEADLINE_MS }, "shutting down");
  await running.stop().catch((err) => logger.error({ err: String(err) }, "shutdown failed"));
  logger.info("stopped");
  exit(logger);
}

async function main(): Promise<void> {
  // Handlers first: a signal that arrives while the start is still running must not be lost
  // (as PID 1 in a container, an unhandled SIGTERM is ignored until Docker's SIGKILL).
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  try {
    system = await startSystem({ config });
  } catch (err) {
    // Asked to stop while starting: the stop was clean even if the start it cut short was not.
    fail("Recharge assistant could not start", err, stopSignal ? 0 : 1);
  }
  if (stopSignal) return stop(system, stopSignal);
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
}

main().catch((err) => fail("Recharge assistant failed", err, 1));
