import type { LedgerStore } from "../ledger/index.ts";
import type { Logger } from "../logger.ts";
import type { Order } from "../orders/model.ts";
import type { Crossings } from "./crossing.ts";

/** What the books read (report.ts, scan.ts). */
export interface BooksDeps {
  ledger: LedgerStore;
  orders: {
    get(reference: string): Promise<Order | null>;
    listOpen(opts: { createdBefore: number; limit: number; offset?: number }): Promise<Order[]>;
  };
  /** The aggregator's wallet now; throws when it cannot say. */
  walletBalance(): Promise<{ creditAvailablePaisa: number }>;
  crossings: Crossings;
  now: () => number;
  logger?: Logger;
}

/** The transfer that books the opening float, once (report.ts). */
export const FLOAT_OPENING_ID = "float-opening";
