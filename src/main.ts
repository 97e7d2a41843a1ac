import { type Config, ConfigError, loadConfig, secretsOf } from "./config/index.ts";
import type { Logger } from "./logger.ts";
import { type System, startSystem } from "./system/index.ts";
import { trimMemoryWhenQuiet } from "./system/memory-trim.ts";

/**
 * Entry point of `npm start` and of the image: read the configuration, start everything
 * (src/system/ is the composition root), stop gracefully on SIGTERM and SIGINT.
 */

/**
 * The whole shutdown is bounded below Docker's 10 s grace period (then SIGKILL, logs lost). An
 * execute or status query still in flight is not waited for (an execute may take 30 s): its order
 * stays "submitting" or "unknown" in the store and the reconciler of the next process settles it
 * from the aggregator's status.
 */
const SHUTDOWN_DEADLINE_MS = 8_000;

/** False in the image's build (scripts/build.mjs --without-local-mode): no dev/ harness there. */
declare const __LOCAL_MODE__: boolean | undefined;
const LOCAL_MODE_BUILT = typeof __LOCAL_MODE__ === "undefined" || __LOCAL_MODE__;

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

/** The messages of an error and of what it wraps (its cause; grammY's HttpError: `error`). */
function messagesOf(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    parts.push(current.message);
    const e = current as { cause?: unknown; error?: unknown };
    current = e.cause ?? e.error;
  }
  return parts.join(" <- ");
}

/**
 * The last boundary: an error nothing caught (a rejection left unawaited, a throw in a timer).
 * Node's own print shows every property of it (grammY's HttpError: the request's URL, the bot
 * token in it) past pino's scrub; here it goes through pino and the scrubbed line instead, and
 * the process still ends, as Node's default would: its state is unknown.
 */
function crashed(err: unknown): never {
  const message = messagesOf(err);
  const stack = err instanceof Error ? err.stack : undefined;
  system?.logger.fatal({ err: { message, stack } }, "crashed: an error nothing caught");
  system?.logger.flush();
  fail("Recharge assistant crashed", message, 1);
}

/**
 * A port already taken (a second `npm start`, another service) named by the variable that sets
 * it, so the one line says what to change.
 */
function portInUseHint(err: unknown, running: Config): string | undefined {
  const e = err as { code?: unknown; port?: unknown; address?: unknown };
  if (e?.code !== "EADDRINUSE" || typeof e.port !== "number") return undefined;
  const owner =
    e.port === running.http.port ? "PORT" : e.port === running.metrics.port ? "METRICS_PORT" : "";
  if (!owner) return undefined;
  return `${String(e.address ?? "")}:${e.port} is in use (another instance running?): set ${owner} to a free port, or ${owner}=0 for any free one`;
}

/** Without the local-mode harness (the image) a start needs a real bot and a real aggregator. */
function needsConfiguration(running: Config): string | undefined {
  if (LOCAL_MODE_BUILT) return undefined;
  const missing = [
    running.mode.playground ? "BOT_TOKEN or the WHATSAPP_ variables" : "",
    running.mode.embeddedSandbox ? "PROVIDER_URL" : "",
  ].filter(Boolean);
  if (missing.length === 0) return undefined;
  return `Recharge assistant needs its configuration: set ${missing.join(" and ")} (every variable is in .env.example); this build has no playground (run "npm start" in a clone of the repository for one)`;
}

/** A configuration refused stops the start with exit code 2, each problem on a line of its own. */
function refuseConfiguration(err: unknown): void {
  if (!(err instanceof ConfigError)) return;
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
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
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
  try {
    config = loadConfig();
  } catch (e) {
    refuseConfiguration(e);
    throw e;
  }
  const missing = needsConfiguration(config);
  if (missing) {
    process.stderr.write(`${missing}\n`);
    process.exit(2);
  }
  try {
    system = await startSystem({ config });
  } catch (err) {
    // The sandbox's own settings are read where it starts (local mode): refused like the rest.
    if (!stopSignal) refuseConfiguration(err);
    // Asked to stop while starting: the stop was clean even if the start it cut short was not.
    fail(
      "Recharge assistant could not start",
      portInUseHint(err, config) ?? err,
      stopSignal ? 0 : 1,
    );
  }
  if (stopSignal) return stop(system, stopSignal);
  const { logger } = system;
  trimMemoryWhenQuiet(logger);
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
