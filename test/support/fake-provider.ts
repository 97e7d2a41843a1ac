import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scriptable stand-in for the aggregator over real loopback HTTP. Routes answer with canned
 * replies; every request is recorded (headers, raw body, parsed body) so tests can count attempts
 * and check bodies field by field.
 */

export const TOKEN = "tok_live_9f8e7d6c5b4a_SECRET";
const PREFIX = "/api/v1";

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: unknown;
}

export type Reply =
  | { json: unknown; status?: number; headers?: Record<string, string> }
  | { text: string; status?: number; contentType?: string; headers?: Record<string, string> }
  /** Receive the request and never answer (until the server closes). */
  | { hold: true }
  /** Receive the request, then destroy the socket without a response. */
  | { destroy: true };

/** `n` is the 1-based count of requests to this route since its reply was set (this one included). */
export type Handler = (req: Recorded, n: number) => Reply;

export interface FakeProvider {
  baseUrl: string;
  requests: Recorded[];
  on(method: string, path: string, reply: Reply | Handler): void;
  /** Requests received for one route. */
  received(method: string, path: string): Recorded[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, reply: Reply): void {
  if ("hold" in reply) return;
  if ("destroy" in reply) {
    res.socket?.destroy();
    return;
  }
  if ("json" in reply) {
    const body = typeof reply.json === "string" ? reply.json : JSON.stringify(reply.json);
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(body);
    return;
  }
  res.writeHead(reply.status ?? 200, {
    "content-type": reply.contentType ?? "text/html; charset=utf-8",
    ...reply.headers,
  });
  res.end(reply.text);
}

export async function startFakeProvider(
  options: { checkToken?: boolean } = {},
): Promise<FakeProvider> {
  const routes = new Map<string, Handler>();
  const requests: Recorded[] = [];
  const counts = new Map<string, number>();
  const checkToken = options.checkToken ?? true;

  const server = createServer(async (req, res) => {
    const rawBody = await readBody(req);
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
    let body: unknown = null;
    try {
      body = rawBody === "" ? null : JSON.parse(rawBody);
    } catch {
      body = rawBody;
    }
    const recorded: Recorded = {
      method: req.method ?? "",
      path,
      headers: req.headers,
      rawBody,
      body,
    };
    requests.push(recorded);
    const key = `${recorded.method} ${path}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (checkToken && req.headers["x-auth-token"] !== TOKEN) {
      send(res, { json: { error: true, message: "Unauthenticated." }, status: 401 });
      return;
    }
    const handler = routes.get(key);
    if (!handler) {
      send(res, { json: { error: true, message: "Route not found" }, status: 404 });
      return;
    }
    send(res, handler(recorded, n));
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}${PREFIX}`,
    requests,
    on(method, path, reply) {
      counts.delete(`${method} ${path}`); // a new script starts counting afresh
      routes.set(`${method} ${path}`, typeof reply === "function" ? reply : () => reply);
    },
    received(method, path) {
      return requests.filter((r) => r.method === method && r.path === path);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A pino-compatible logger that keeps every call, to prove what was (not) logged. */
export function captureLogger() {
  const calls: Array<{ level: "debug" | "warn"; obj: object; msg?: string | undefined }> = [];
  return {
    calls,
    debug(obj: object, msg?: string) {
      calls.push({ level: "debug", obj, msg });
    },
    warn(obj: object, msg?: string) {
      calls.push({ level: "warn", obj, msg });
    },
  };
}

/** An injectable sleep that returns at once and remembers what was asked. */
export function recordingSleep() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}
