import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

type Fetch = (req: Request, env: unknown) => Response | Promise<Response>;

export interface Listener {
  port: number;
  /** http://host:port, with a wildcard host replaced by loopback so this process can call itself. */
  url: string;
  /** Stops accepting and closes every open connection. */
  close(): Promise<void>;
}

/** Serves `fetch` on host:port and resolves once listening (rejects on EADDRINUSE and the like). */
export async function listen(fetch: Fetch, at: { host: string; port: number }): Promise<Listener> {
  const server = serve({ fetch, hostname: at.host, port: at.port });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const local = ["0.0.0.0", "::", ""].includes(at.host) ? "127.0.0.1" : at.host;
  return {
    port,
    url: `http://${local.includes(":") ? `[${local}]` : local}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server)
          (server as { closeAllConnections(): void }).closeAllConnections();
      }),
  };
}
