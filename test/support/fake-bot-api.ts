import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A Bot API over real HTTP whose answers a test scripts per call: sendMessage, editMessageText
 * and deleteMessage keep a chat's messages; `script(method, params)` may answer instead: "reset" (the connection is
 * dropped before an answer, the message NOT kept: Telegram never carried it out), "reset-after"
 * (dropped after the message was kept: carried out, answer lost) or a Bot API error.
 */

export type FakeAnswer =
  | "reset"
  | "reset-after"
  | { error_code: number; description: string; retry_after?: number }
  | undefined;

export interface FakeMessage {
  id: number;
  text: string;
  edited: boolean;
}

export interface FakeBotApi {
  apiRoot: string;
  chat(chatId: number): FakeMessage[];
  calls(method: string): number;
  script: (method: string, params: Record<string, unknown>) => FakeAnswer;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

export async function startFakeBotApi(): Promise<FakeBotApi> {
  const chats = new Map<number, FakeMessage[]>();
  const counts = new Map<string, number>();
  let nextId = 1;
  const chat = (id: number) => {
    const list = chats.get(id) ?? [];
    chats.set(id, list);
    return list;
  };
  const fake: FakeBotApi = {
    apiRoot: "",
    chat: (id) => chat(id).map((m) => ({ ...m })),
    calls: (method) => counts.get(method) ?? 0,
    script: () => undefined,
    close: async () => undefined,
  };
  const reply = (res: ServerResponse, status: number, payload: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  };
  /** Carries the call out; returns its result. */
  const carryOut = (method: string, p: Record<string, unknown>): unknown => {
    const chatId = Number(p.chat_id);
    if (method === "sendMessage") {
      const m = { id: nextId++, text: String(p.text), edited: false };
      chat(chatId).push(m);
      return { message_id: m.id, date: 0, chat: { id: chatId, type: "private" }, text: m.text };
    }
    if (method === "editMessageText") {
      const m = chat(chatId).find((x) => x.id === Number(p.message_id));
      if (!m) throw { error_code: 400, description: "Bad Request: message to edit not found" };
      if (m.text === String(p.text))
        throw { error_code: 400, description: "Bad Request: message is not modified" };
      m.text = String(p.text);
      m.edited = true;
      return true;
    }
    if (method === "deleteMessage") {
      const list = chat(chatId);
      const at = list.findIndex((x) => x.id === Number(p.message_id));
      if (at < 0)
        throw { error_code: 400, description: "Bad Request: message to delete not found" };
      list.splice(at, 1);
      return true;
    }
    return true;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const method = (req.url ?? "").split("/").pop() ?? "";
      const params = await body(req);
      counts.set(method, (counts.get(method) ?? 0) + 1);
      const answer = fake.script(method, params);
      if (answer === "reset") return req.socket.destroy();
      if (typeof answer === "object") {
        const { retry_after, ...e } = answer;
        return reply(res, e.error_code, {
          ok: false,
          ...e,
          ...(retry_after === undefined ? {} : { parameters: { retry_after } }),
        });
      }
      try {
        const result = carryOut(method, params);
        if (answer === "reset-after") return req.socket.destroy();
        reply(res, 200, { ok: true, result });
      } catch (e) {
        const err = e as { error_code: number; description: string };
        reply(res, err.error_code, { ok: false, ...err });
      }
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  fake.apiRoot = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  return fake;
}
