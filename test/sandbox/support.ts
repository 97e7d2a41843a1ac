import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.ts";

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
  const { port, close } = await listen(root.fetch);
  return {
    sandbox,
    base: `http://127.0.0.1:${port}/api/v1`,
    async close() {
      sandbox.close();
      await close();
    },
  };
}

async function listen(
  fetch: Parameters<typeof serve>[0]["fetch"],
): Promise<{ port: number; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
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

/** A seeded PRNG (mulberry32), so fault shares give the same sequence on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Polls until `check` stops throwing (webhook arrivals on real timers). */
export async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
