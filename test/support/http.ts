import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

/**
 * Serves a fetch handler on a loopback port; env (node-server bindings) is passed through. `server`
 * is the HTTP/1 listener, for a test that watches what it sees of a client (its socket's end).
 */
export async function serveFetch(
  fetch: (req: Request, env: unknown) => Response | Promise<Response>,
): Promise<{ url: string; port: number; server: Server; close(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        // serve() makes an http.Server unless told to make another (we never do).
        server: server as Server,
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
