import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { ApiClientOptions } from "grammy";

/** Telegram's Bot API when no TELEGRAM_API_ROOT is set (grammY's own default). */
const TELEGRAM_API_ROOT = "https://api.telegram.org";

/**
 * How long a kept-alive connection to the Bot API may sit idle before we close it ourselves;
 * a server that announces a shorter keep-alive (`Keep-Alive: timeout=N`) is believed, less a
 * second (Node's agent does that once it has a timeout of its own).
 *
 * Why: grammY's default agent keeps idle sockets forever, and Node's agent ignores the server's
 * hint without a timeout of its own. A send that picks a socket the server is closing at that
 * moment fails with ECONNRESET; for a sendMessage that counts as "may have arrived", so the push
 * waited for the notifier's next try, a minute later, flagged a possible duplicate (seen with
 * the local emulator's 5 s keep-alive: test/bot/bot-api-idle-connection.test.ts).
 */
const BOT_API_IDLE_SOCKET_MS = 30_000;

/**
 * The Bot API client's options: where it calls (`apiRoot`), through which fetch (another
 * channel's router), over a keep-alive agent whose idle sockets close before the server's.
 * One agent per client built: both the bot and the top-up notices' sender use this.
 */
export function botApiClientOptions(target: {
  apiRoot?: string | undefined;
  fetch?: typeof fetch | undefined;
}): ApiClientOptions {
  const root = target.apiRoot ?? TELEGRAM_API_ROOT;
  const options = { keepAlive: true, timeout: BOT_API_IDLE_SOCKET_MS };
  const agent = root.startsWith("http:") ? new HttpAgent(options) : new HttpsAgent(options);
  return {
    ...(target.apiRoot ? { apiRoot: target.apiRoot } : {}),
    ...(target.fetch ? { fetch: target.fetch } : {}),
    baseFetchConfig: { agent },
  };
}
