import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A round-robin HTTP load balancer in front of N instances, as an operator would put one (nginx,
 * a cloud LB): each request goes to the next upstream; an upstream that refuses the connection is
 * skipped (proxy_next_upstream error); one that fails after accepting gets 502 to the caller, who
 * retries (a POST is never sent to a second upstream once the first may have acted on it).
 */
export interface RoundRobinProxy {
  url: string;
  port: number;
  /** Requests answered by each upstream port. */
  hits: Map<number, number>;
  refusedSkips: number;
  badGateway: number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: () => number[]): Promise<RoundRobinProxy> {
  let turn = 0;
  const hits = new Map<number, number>();
  const state = { refusedSkips: 0, badGateway: 0 };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const ports = upstreams();
    const start = turn++;
    for (let i = 0; i < ports.length; i++) {
      const port = ports[(start + i) % ports.length] ?? 0;
      const outcome = await new Promise<"done" | "refused" | "failed">((resolve) => {
        const up = request(
          {
            host: "127.0.0.1",
            port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: `127.0.0.1:${port}` },
          },
          (upRes) => {
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            upRes.pipe(res);
            upRes.on("end", () => resolve("done"));
            upRes.on("error", () => {
              res.destroy();
              resolve("done");
            });
          },
        );
        up.on("error", (err: NodeJS.ErrnoException) =>
          resolve(err.code === "ECONNREFUSED" ? "refused" : "failed"),
        );
        up.end(body);
      });
      if (outcome === "done") {
        hits.set(port, (hits.get(port) ?? 0) + 1);
        return;
      }
      if (outcome === "failed") break;
      state.refusedSkips++;
    }
    state.badGateway++;
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end("bad gateway");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    get refusedSkips() {
      return state.refusedSkips;
    },
    get badGateway() {
      return state.badGateway;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
