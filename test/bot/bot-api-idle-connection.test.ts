import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Api } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { botApiClientOptions } from "../../src/telegram/client-options.ts";
import { sleep, waitUntil } from "../support/wait.ts";

/**
 * The Bot API client closes an idle kept-alive connection before the server does. grammY's
 * default agent kept it forever, so a send could pick a socket the server was closing that
 * moment: ECONNRESET, a push counted as "may have arrived" and sent again a minute later
 * (test/whatsapp/link-dropped-push failed on it under load; the local emulator keeps a
 * connection 5 s). Here the server announces a 3 s keep-alive but never closes a connection
 * itself, so only the client can.
 */

interface Conn {
  socket: Socket;
  endedByClient: boolean;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function botApiServer(answer: (method: string, res: ServerResponse) => void) {
  const conns: Conn[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on("end", () => answer(req.url?.split("/").pop() ?? "", res));
  });
  // Announced as `Keep-Alive: timeout=3`; the server's own close comes 10 minutes after that.
  server.keepAliveTimeout = 3_000;
  Object.assign(server, { keepAliveTimeoutBuffer: 600_000 });
  server.on("connection", (socket: Socket) => {
    const conn = { socket, endedByClient: false };
    conns.push(conn);
    socket.on("end", () => {
      conn.endedByClient = true;
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { apiRoot: `http://127.0.0.1:${port}`, conns };
}

const me = { id: 1, is_bot: true, first_name: "Bot", username: "bot" };
const getMe = (res: ServerResponse) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ ok: true, result: me }));
};

describe("the Bot API client's idle connections", () => {
  it("closes an idle connection itself before the server's announced keep-alive runs out", async () => {
    const { apiRoot, conns } = await botApiServer((_m, res) => getMe(res));
    const api = new Api("1:token", botApiClientOptions({ apiRoot }));
    expect((await api.getMe()).id).toBe(1);
    expect(conns).toHaveLength(1);
    await waitUntil(() => conns[0]?.endedByClient, "the client to close the idle connection", {
      timeoutMs: 10_000,
    });
    // The next call opens a new connection and is answered.
    expect((await api.getMe()).id).toBe(1);
    expect(conns).toHaveLength(2);
  });

  it("an answer slower than the idle limit still arrives on a reused connection", async () => {
    let calls = 0;
    const { apiRoot, conns } = await botApiServer((_m, res) => {
      calls++;
      // The second call waits past the 2 s idle limit (3 s announced, less a second).
      if (calls === 1) getMe(res);
      else void sleep(2_500).then(() => getMe(res));
    });
    const api = new Api("1:token", botApiClientOptions({ apiRoot }));
    await api.getMe();
    expect((await api.getMe()).id).toBe(1);
    expect(conns).toHaveLength(1);
  });
});
