import { createKhaltiStandIn, STANDIN_SECRET_KEY } from "../../dev/khalti/index.ts";
import { listen } from "../../src/http/listen.ts";
import type { LedgerStore } from "../../src/ledger/index.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import {
  createKhaltiGateway,
  createTopUps,
  type TopUpNotice,
  type TopUpStore,
  type UnreadableNotice,
} from "../../src/payments/index.ts";

/** The Khalti stand-in alone on a loopback port (tests that build the top-up service by hand). */
export async function serveKhaltiStandIn(
  opts: Pick<Parameters<typeof createKhaltiStandIn>[0], "onLookup"> = {},
) {
  let base = "";
  const standIn = createKhaltiStandIn({
    ...opts,
    secretKey: STANDIN_SECRET_KEY,
    get publicBase() {
      return base;
    },
  } as Parameters<typeof createKhaltiStandIn>[0]);
  const server = await listen(standIn.app.fetch, { host: "127.0.0.1", port: 0 });
  base = server.url;
  return { standIn, url: server.url, apiUrl: `${server.url}/api/v2`, close: () => server.close() };
}

/** A top-up service as one process would have it, over the given store and books. */
export function topUpService(opts: {
  apiUrl: string;
  store: TopUpStore;
  ledger: LedgerStore;
  notices: TopUpNotice[];
  notify?: (n: TopUpNotice) => Promise<void>;
  /** The admins' alerts of unreadable records, as they were sent. */
  unreadable?: UnreadableNotice[];
  /** How those alerts are sent instead (kept in `unreadable` if not given). */
  notifyUnreadable?: (n: UnreadableNotice) => Promise<void>;
  adminChatIds?: number[];
  logger?: Logger;
  now?: () => number;
  maxPaisa?: number;
  dailyCapPaisa?: number;
  /** The key sent to Khalti (the stand-in's own unless given: another is refused, 401). */
  secretKey?: string;
  initiateRefused?: Parameters<typeof createTopUps>[0]["initiateRefused"];
}) {
  const gateway = createKhaltiGateway({
    baseUrl: opts.apiUrl,
    secretKey: opts.secretKey ?? STANDIN_SECRET_KEY,
    timeoutMs: 3000,
  });
  const topUps = createTopUps({
    store: opts.store,
    gateway,
    ledger: opts.ledger,
    notify:
      opts.notify ??
      (async (n) => {
        opts.notices.push(n);
      }),
    notifyUnreadable:
      opts.notifyUnreadable ??
      (async (n) => {
        opts.unreadable?.push(n);
      }),
    logger: opts.logger ?? createLogger({ level: "silent" }),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.initiateRefused ? { initiateRefused: opts.initiateRefused } : {}),
    maxPaisa: opts.maxPaisa ?? 1_000_000,
    dailyCapPaisa: opts.dailyCapPaisa ?? 10_000_000,
    returnUrl: "http://127.0.0.1:9/pay/khalti/return",
    websiteUrl: "http://127.0.0.1:9",
    adminChatIds: opts.adminChatIds ?? [3001],
    lookupEveryMs: 1000,
    refundWatchMs: 86_400_000,
    refundCheckEveryMs: 1000,
  });
  return { topUps, gateway };
}
