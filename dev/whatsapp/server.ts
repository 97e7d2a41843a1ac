// Runs a stand-in on its own loopback HTTP server: what a test needs to point the product's
// WhatsApp client at it (`graphRoot`: use it in place of https://graph.facebook.com).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createWhatsAppStandIn } from "./stand-in.ts";
import type { WhatsAppStandIn, WhatsAppStandInOptions } from "./types.ts";

export interface RunningStandIn {
  standIn: WhatsAppStandIn;
  /** http://127.0.0.1:PORT (no trailing slash). */
  graphRoot: string;
  close(): Promise<void>;
}

export function startWhatsAppStandInServer(opts: WhatsAppStandInOptions): Promise<RunningStandIn> {
  const standIn = createWhatsAppStandIn(opts);
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: standIn.app.fetch, port: 0, hostname: "127.0.0.1" },
      (info: AddressInfo) =>
        resolve({
          standIn,
          graphRoot: `http://127.0.0.1:${info.port}`,
          close: async () => {
            await standIn.close();
            await new Promise<void>((done) => {
              server.close(() => done());
              if ("closeIdleConnections" in server) server.closeIdleConnections();
            });
          },
        }),
    );
    server.once("error", reject);
  });
}
