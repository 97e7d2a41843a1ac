import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import {
  createSandbox,
  type FaultsPatch,
  type Sandbox,
  type SandboxOptions,
} from "../../../dev/sandbox/index.ts";
import type { LogCapture } from "./logs.ts";

/**
 * The sandbox aggregator served over loopback HTTP as `npm run sandbox` serves it (base URL ending
 * in /api/v1), with what a chaos test needs in front of it:
 *  - counters: execute requests and status queries per reference, as they arrive;
 *  - outages: "503" (an HTML error page from a gateway), "hang" (accepts, never answers) and
 *    "refused" (the port is closed);
 *  - a per-execute plan: hold the request before it reaches the sandbox (a late commit), or hold
 *    the answer after the sandbox committed it (a timeout after commit, or "the bot dies now").
 */

export type Outage = "up" | "503" | "hang" | "refused";

export interface ExecutePlan {
  /** Held this long before the sandbox sees it (the client may time out first). */
  beforeMs?: number;
  /** Held this long after the sandbox applied it, before the answer leaves. */
  afterMs?: number;
  /** Awaited after the sandbox applied it, before the answer leaves. */
  afterCommit?: () => Promise<void>;
}

export interface ProviderServerOptions {
  token: string;
  webhook?: { url: string; secret: string };
  faults?: FaultsPatch;
  /** Decides per execute request (by reference_no) what to hold. */
  plan?: (reference: string) => ExecutePlan | undefined;
  logs?: LogCapture;
  sandbox?: Partial<Omit<SandboxOptions, "accounts">>;
  balancePaisa?: number;
}

export interface ProviderServer {
  sandbox: Sandbox;
  token: string;
  /** http://127.0.0.1:PORT/api/v1 */
  base: string;
  port: number;
  /** Execute requests received, by reference_no (counted before anything else happens). */
  executes: Map<string, number>;
  /** Status queries received, by order_id or transaction_id. */
  statusQueries: Map<string, number>;
  /** Every request received, by path (after /api/v1). */
  requests: Map<string, number>;
  outage: Outage;
  setOutage(mode: Outage): Promise<void>;
  setPlan(plan: ProviderServerOptions["plan"]): void;
  total(map: Map<string, number>): number;
  close(): Promise<void>;
}

const GATEWAY_PAGE =
  "<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>";

export async function startProviderServer(opts: ProviderServerOptions): Promise<ProviderServer> {
  const logger = opts.logs
    ? (() => {
        const line = (level: number) => (obj: object, msg?: string) =>
          opts.logs?.write(
            "sandbox",
            `${JSON.stringify({ level, time: Date.now(), ...obj, msg })}\n`,
          );
        return { debug: line(20), info: line(30), warn: line(40) };
      })()
    : undefined;
  const sandbox = createSandbox({
    accounts: [
      {
        token: opts.token,
        balancePaisa: opts.balancePaisa ?? 10_000_000_000,
        ...(opts.webhook ? { webhook: opts.webhook } : {}),
      },
    ],
    delays: { toPendingMs: 30, toFinalMs: 60 },
    rateLimitPerSecond: 0,
    ...(opts.faults ? { faults: { [opts.token]: opts.faults } } : {}),
    ...(logger ? { logger } : {}),
    // Failed webhook deliveries are retried quickly, so a test does not wait on the backoff.
    webhook: { backoffMs: 200, maxAttempts: 6, timeoutMs: 5_000 },
    ...opts.sandbox,
  });
  const root = new Hono();
  root.route("/api/v1", sandbox.app);

  const executes = new Map<string, number>();
  const statusQueries = new Map<string, number>();
  const requests = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let plan = opts.plan;
  let outage: Outage = "up";
  const hung = new Set<() => void>();
  const releaseHung = () => {
    for (const release of [...hung]) release();
  };

  const handle = async (req: Request, env: unknown): Promise<Response> => {
    const path = new URL(req.url).pathname.replace(/^\/api\/v1/, "");
    if (outage === "503") {
      return new Response(GATEWAY_PAGE, {
        status: 503,
        headers: { "content-type": "text/html" },
      });
    }
    if (outage === "hang") {
      await new Promise<void>((resolve) => {
        const release = () => {
          hung.delete(release);
          resolve();
        };
        hung.add(release);
        req.signal.addEventListener("abort", release, { once: true });
      });
      return new Response(GATEWAY_PAGE, { status: 504, headers: { "content-type": "text/html" } });
    }
    bump(requests, path);
    if (req.method !== "POST") return root.fetch(req, env);
    // The body is read once here and handed on, so a client that gave up cannot stop the commit.
    const text = await req.text();
    let body: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
    } catch {
      body = Object.fromEntries(new URLSearchParams(text));
    }
    const forward = new Request(req.url, { method: req.method, headers: req.headers, body: text });
    if (/\/recharge\/execute$/.test(path)) {
      const ref = String(body.reference_no);
      bump(executes, ref);
      const p = plan?.(ref);
      if (p?.beforeMs) await new Promise((r) => setTimeout(r, p.beforeMs));
      const res = await root.fetch(forward, env);
      if (p?.afterCommit) await p.afterCommit();
      if (p?.afterMs) await new Promise((r) => setTimeout(r, p.afterMs));
      return res;
    }
    if (/\/(service|order)\/status$/.test(path)) {
      bump(statusQueries, String(body.order_id ?? body.transaction_id));
    }
    return root.fetch(forward, env);
  };

  const server = serve({ fetch: handle, port: 0, hostname: "127.0.0.1" }) as Server;
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as AddressInfo).port;

  const closeListener = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    sandbox,
    token: opts.token,
    base: `http://127.0.0.1:${port}/api/v1`,
    port,
    executes,
    statusQueries,
    requests,
    get outage() {
      return outage;
    },
    async setOutage(mode) {
      const was = outage;
      outage = mode;
      if (was === "hang" && mode !== "hang") releaseHung();
      if (mode === "refused" && was !== "refused") await closeListener();
      if (was === "refused" && mode !== "refused") {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(port, "127.0.0.1", () => {
            server.off("error", reject);
            resolve();
          });
        });
      }
    },
    setPlan(p) {
      plan = p;
    },
    total: (m) => [...m.values()].reduce((a, b) => a + b, 0),
    async close() {
      releaseHung();
      sandbox.close();
      if (outage !== "refused") await closeListener();
    },
  };
}
