// Runs an emulator on its own loopback HTTP server: what tests and scripts need to point a
// grammY bot at it (`new Bot(token, { client: { apiRoot } })`).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import {
  type BotApiEmulator,
  type BotApiEmulatorOptions,
  createBotApiEmulator,
} from "./emulator.ts";

export interface RunningEmulator {
  emulator: BotApiEmulator;
  /** http://127.0.0.1:PORT */
  url: string;
  /** What grammY's `client.apiRoot` takes (no trailing slash). */
  apiRoot: string;
  port: number;
  close(): Promise<void>;
}

export function startBotApiEmulatorServer(
  options: BotApiEmulatorOptions = {},
): Promise<RunningEmulator> {
  const emulator = createBotApiEmulator(options);
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: emulator.app.fetch, port: 0, hostname: "127.0.0.1" },
      (info: AddressInfo) => {
        const url = `http://127.0.0.1:${info.port}`;
        resolve({
          emulator,
          url,
          apiRoot: url,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              // Released long polls get their empty answer first; stragglers are cut after a grace.
              emulator.close();
              const force = setTimeout(() => {
                if ("closeAllConnections" in server) server.closeAllConnections();
              }, 1_000);
              force.unref();
              server.close(() => {
                clearTimeout(force);
                done();
              });
              if ("closeIdleConnections" in server) server.closeIdleConnections();
            }),
        });
      },
    );
    server.once("error", reject);
  });
}
