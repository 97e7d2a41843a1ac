import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterEach } from "vitest";
import { createSandbox, type Sandbox, type SandboxOptions } from "../../dev/sandbox/index.ts";
import { serveFetch } from "./http.ts";

export { eventually, seeded } from "./wait.ts";

/** Test plumbing: the sandbox on a loopback port (as `npm run sandbox` serves it) and a webhook receiver. */

export const TOKEN = "test-sandbox-token";
export const SECRET = "test-webhook-secret";

export interface RunningSandbox {
  sandbox: Sandbox;
  /** Base URL ending in /api/v1. */
  base: string;
  close(): Promise<void>;
}

export async function startSandbox(opts: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox({
    accounts: [{ token: TOKEN }],
    delays: { toPendingMs: 20, toFinalMs: 40 },
    ...opts,
  });
  const root = new Hono();
  root.route("/api/v1", sandbox.app);
  const { port, close } = await serveFetch(root.fetch);
  return {
    sandbox,
    base: `http://127.0.0.1:${port}/api/v1`,
    async close() {
      sandbox.close();
      await close();
    },
  };
}

/** Raw HTTP to the sandbox, for what the client cannot send (malformed bodies, month 13, ...). */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { "x-auth-token": TOKEN },
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: JSON.parse(text) };
}

/**
 * Sandboxes and webhook receivers for the tests of one file, each closed after its test (the last
 * started first).
 */
export function closedAfterEach() {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
  const track = <T extends { close(): Promise<void> }>(item: T): T => {
    open.push(item);
    return item;
  };
  return {
    sandbox: async (opts: Partial<SandboxOptions> = {}) => track(await startSandbox(opts)),
    receiver: async () => track(await startReceiver()),
  };
}

export interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the answer to the n-th request (0-based); default 200 JSON. */
  respond: (n: number, res: ServerResponse) => void;
  close(): Promise<void>;
}

/** A local webhook endpoint that records every request. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    received: [],
    respond: (_n, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"status":"ok"}');
    },
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const n = receiver.received.length;
      receiver.received.push({
        method: req.method ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      receiver.respond(n, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return receiver;
}
