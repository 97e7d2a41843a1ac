import type { Api } from "grammy";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";
import { createNotifierApi } from "../../src/notify/api.ts";
import type { OrdersProvider } from "../../src/orders/service.ts";

/** A provider for notifier tests that never reach the aggregator: every execute is unknown. */
export const noProvider: OrdersProvider = {
  async execute(req) {
    return { kind: "unknown", referenceNo: req.referenceNo, reason: "timeout", detail: "" };
  },
  async statusByReference() {
    throw new Error("unused");
  },
};

/** The Bot API emulator over HTTP and the notifier's Bot API client pointed at it. */
export async function notifierEmulator(
  token: string,
  opts: Omit<Parameters<typeof createNotifierApi>[1], "apiRoot">,
): Promise<{ em: RunningEmulator; api: Api }> {
  const em = await startBotApiEmulatorServer();
  return { em, api: createNotifierApi(token, { ...opts, apiRoot: em.apiRoot }) };
}
