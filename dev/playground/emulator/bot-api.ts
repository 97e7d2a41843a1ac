// The Bot API's HTTP face: `{apiRoot}/bot<token>/<method>` (and grammY's test environment
// `{apiRoot}/bot<token>/test/<method>`), GET or POST, answered with Telegram's envelope and the
// HTTP status equal to error_code.
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { BotApiResponse } from "./bot-checks.ts";
import { dispatch } from "./bot-methods.ts";
import type { EmulatorCore, LostAnswer } from "./core.ts";
import { ParamsError, readParams } from "./params.ts";

export function createBotApiRoutes(core: EmulatorCore): Hono {
  const app = new Hono();
  const handle = async (c: Context) => {
    const token = c.req.param("token")?.slice("bot".length) ?? "";
    const method = c.req.param("method") ?? "";
    const expected = core.options.token;
    if (expected !== undefined && token !== expected) {
      core.recordCall(
        {
          method,
          params: {},
          at: core.now,
          ok: false,
          error_code: 401,
          description: "Unauthorized",
        },
        true,
      );
      return reply(c, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    }
    let params: Record<string, unknown>;
    try {
      params = await readParams(c.req.raw);
    } catch (error) {
      const description =
        error instanceof ParamsError
          ? `Bad Request: ${error.message}`
          : "Bad Request: unreadable body";
      core.recordCall(
        { method, params: {}, at: core.now, ok: false, error_code: 400, description },
        true,
      );
      return reply(c, 400, { ok: false, error_code: 400, description });
    }
    await core.passHold(method);
    if (core.takeLostAnswer(method, true)) return loseAnswer(c, "reset");
    const { status, body } = await dispatch(core, method, params, c.req.raw.signal);
    const lost = status === 200 ? core.takeLostAnswer(method) : undefined;
    if (lost) return loseAnswer(c, lost);
    return reply(c, status, body);
  };
  app.all("/:token{bot[^/]+}/test/:method", handle);
  app.all("/:token{bot[^/]+}/:method", handle);
  return app;
}

/**
 * No answer arrives (the call was carried out, or not: see LostAnswer). "reset": the socket is
 * destroyed (on the Node server; elsewhere it hangs like "hang"). "hang": no answer until the
 * client gives up.
 */
async function loseAnswer(c: Context, how: LostAnswer): Promise<Response> {
  const incoming = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming;
  if (how === "reset" && incoming?.socket) incoming.socket.destroy();
  const signal = c.req.raw.signal;
  await new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
    // Never longer than a minute, whatever the client does.
    setTimeout(resolve, 60_000).unref();
  });
  return new Response(null, { status: 504 });
}

function reply(c: Context, status: number, body: BotApiResponse): Response {
  return c.json(body, status as ContentfulStatusCode);
}
