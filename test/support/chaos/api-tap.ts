import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A pass-through in front of the Bot API (the emulator) that can hold the answer to one chosen call
 * after the call took effect: the message is in the chat, the bot has not heard back. Killing the
 * bot then is killing it in the middle of handling an update, deterministically.
 */
export interface ApiTap {
  url: string;
  /** The next call matching `match` is forwarded, then its answer held until `release()`. */
  hold(match: (method: string, params: Record<string, unknown>) => boolean): {
    reached: Promise<void>;
    /** Lets the held answer go (or, if nothing matched yet, withdraws the hold). */
    release(): void;
  };
  /** The sendMessage calls that took effect through this tap, with when the Bot API answered. */
  sent: Array<{ chatId: unknown; text: string; at: number }>;
  close(): Promise<void>;
}

export async function startApiTap(target: string): Promise<ApiTap> {
  const holds: Array<{
    match: (method: string, params: Record<string, unknown>) => boolean;
    reach: () => void;
    released: Promise<void>;
  }> = [];
  const sent: ApiTap["sent"] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const method = (req.url ?? "").split("/").pop()?.split("?")[0] ?? "";
    let params: Record<string, unknown> = {};
    try {
      params = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    } catch {
      params = {};
    }
    try {
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method ?? "POST",
        headers: { "content-type": String(req.headers["content-type"] ?? "application/json") },
        ...(req.method === "GET" ? {} : { body }),
      });
      const text = await answer.text();
      // In the chat now, whether or not the bot hears the answer.
      if (method === "sendMessage" && answer.ok)
        sent.push({ chatId: params.chat_id, text: String(params.text ?? ""), at: Date.now() });
      const i = holds.findIndex((h) => h.match(method, params));
      const held = i >= 0 ? holds.splice(i, 1)[0] : undefined;
      if (held) {
        held.reach();
        await held.released;
      }
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(text);
    } catch {
      res.destroy();
    }
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    hold(match) {
      let reach = () => {};
      let release = () => {};
      const reached = new Promise<void>((r) => {
        reach = r;
      });
      const released = new Promise<void>((r) => {
        release = r;
      });
      const entry = { match, reach, released };
      holds.push(entry);
      return {
        reached,
        release() {
          const i = holds.indexOf(entry);
          if (i >= 0) holds.splice(i, 1);
          release();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
