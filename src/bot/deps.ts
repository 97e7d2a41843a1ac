import type { I18n } from "@grammyjs/i18n";
import type { Catalog } from "../catalog/index.ts";
import type { Logger } from "../logger.ts";
import type { Order } from "../orders/model.ts";
import type { ProviderClient } from "../provider/index.ts";
import type { BotContext } from "./context.ts";
import type { SpendLimits } from "./limits.ts";

/** What a confirmed conversation hands to the orders service (ids and chat come from the flow). */
export type OrderDraft = { referenceNo?: string } & Pick<
  Order,
  | "category"
  | "region"
  | "operatorId"
  | "operatorTypeId"
  | "operatorName"
  | "connectionNo"
  | "amountPaisa"
  | "details"
> & { executeReference?: string };

export interface PlaceInput extends OrderDraft {
  idempotencyKey: string;
  /** A reference allocated earlier with nextReference (package listings carry one). */
  referenceNo?: string;
  userId: number;
  chatId: number;
  locale: string;
}

/** The part of the orders service the bot uses. */
export interface BotOrders {
  /** Durable before anything is sent; a known idempotency key returns the existing order. */
  place(input: PlaceInput): Promise<Order>;
  /** A fresh reference_no, e.g. for a package listing whose reference the execute must carry. */
  nextReference(): Promise<string>;
  /** Remembers the chat message (receipt) the notifier edits in place. */
  attachReceipt(reference: string, messageId: number): Promise<Order | null>;
  /**
   * Marks the order submitting and executes it once; a replay that finds it submitting or beyond
   * sends nothing and returns the order as stored.
   */
  submit(reference: string): Promise<Order>;
  get(reference: string): Promise<Order | null>;
  getByTransactionId(transactionId: string): Promise<Order | null>;
  listByUser(userId: number, limit: number): Promise<Order[]>;
}

export interface BotSettings {
  agentIds: readonly number[];
  adminIds: readonly number[];
  /** An unanswered question ends the conversation after this long. */
  idleMs: number;
  dailyCapPaisa: number;
}

export interface BotDeps {
  catalog: Catalog;
  provider: ProviderClient;
  orders: BotOrders;
  limits: SpendLimits;
  i18n: I18n<BotContext>;
  settings: BotSettings;
  logger: Logger;
  /** A user who blocked the bot and comes back with /start gets notifications again. */
  reactivateChat(chatId: number): Promise<void>;
}

export type Role = "customer" | "agent" | "admin";

export function roleOf(settings: BotSettings, userId: number | undefined): Role {
  if (userId === undefined) return "customer";
  if (settings.adminIds.includes(userId)) return "admin";
  if (settings.agentIds.includes(userId)) return "agent";
  return "customer";
}
