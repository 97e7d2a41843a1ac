import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

/** Serves a fetch handler on a loopback port; env (node-server bindings) is passed through. */
export async function serveFetch(
  fetch: (req: Request, env: unknown) => Response | Promise<Response>,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ("closeAllConnections" in server) server.closeAllConnections();
          }),
      });
    });
    server.once("error", reject);
  });
}
