import { type AccountId, account, type LedgerStore } from "../ledger/index.ts";
import { nepalDayStart } from "../nepal-time.ts";
import { moveBalanceWith } from "./balance-move.ts";
import { createMemoryLinks, type LinkStore } from "./links.ts";
import { move, receiptOf, reverseWith } from "./money-in.ts";
import type { Phone } from "./phone.ts";
import { releasedReachOf } from "./released-reach.ts";
import { statementOf } from "./statement.ts";
import type { AccountsStore, ProfileInput } from "./store.ts";
import { agentViews, recentOf } from "./summaries.ts";
import type { HeldTaker } from "./take-held.ts";
import { waIdentityOf } from "./wa-held.ts";

export {
  type BalanceMoved,
  type BalanceMoveInput,
  type BalanceMoveResult,
  moveRefusal,
} from "./balance-move.ts";
// What a cash-in, a credit or a reversal answers, and the error of one refused before the books:
// part of the accounts' surface (accounts/index.ts exports this module's names).
export { type MoveResult, NotBookedError, type ReverseResult } from "./money-in.ts";
export { isBalanceMove } from "./move-entry.ts";

/**
 * Who is told of a transfer: who booked it, whom it moved money for, a reversed cash-in's agent;
 * `heard:<user>`, that one staff member heard of its outcome (two admins confirm the same
 * reversal: one books it and hears "done", the other hears "already reversed").
 */
export type NoticeSide = "by" | "party" | "agent" | "from" | "to" | `heard:${number}`;

/** The agent's "today" is the Nepal day, as the spend limits count it. */
export { nepalDayStart };

export interface AccountsOptions {
  ledger: LedgerStore;
  store: AccountsStore;
  /** Proven links between channels (accounts/links.ts); in memory when not given (unit tests). */
  links?: LinkStore;
  now?: () => number;
}

/** The registration on arrival (WhatsApp): the profile too, when the phone was free. */
const claimPhoneWith =
  (store: AccountsStore, now: () => number) =>
  async (userId: number, phone: Phone, who: ProfileInput): Promise<number | null> => {
    const owner = await store.claimPhone(userId, phone);
    if (owner === null) await store.putProfile(userId, who, now());
    return owner;
  };

/** A held WhatsApp chat's number taken only from the owner read; the profile too, when taken. */
const takeHeldWith =
  (store: AccountsStore, now: () => number) =>
  async (phone: Phone, from: number, to: HeldTaker, who: ProfileInput) => {
    const r = await store.takeHeldPhone(phone, from, to);
    if (r.taken) await store.putProfile(r.account, who, now());
    return r;
  };

export function createAccounts(opts: AccountsOptions) {
  const { ledger, store, links = createMemoryLinks(opts.now) } = opts;
  const now = opts.now ?? Date.now;
  const localeSet = new Set<(userId: number, locale: string) => void>();

  return {
    /** Binds the phone; with `who`, also keeps the name and the time for the back office. */
    async register(userId: number, phone: Phone, who?: ProfileInput) {
      await store.register(userId, phone);
      if (who) await store.putProfile(userId, who, now());
    },
    /** `register` only while the phone is nobody else's: null when done, else the owner kept. */
    claimPhone: claimPhoneWith(store, now),
    /** A held WhatsApp chat's number, only from the owner read (take-held.ts). */
    takeHeldPhone: takeHeldWith(store, now),
    ...waIdentityOf(store),
    profileOf: (userId: number) => store.profileOf(userId),
    /** The agent whose shop QR code brought the customer: recorded once (true), then kept. */
    claimShop: (userId: number, agentId: number) => store.claimShop(userId, agentId),
    shopOf: (userId: number) => store.shopOf(userId),
    links, // proven links between channels and their codes (accounts/links.ts)
    /** Where a blocked account's messages go instead (accounts/released-reach.ts). */
    releasedReachOf: (account: number) => releasedReachOf(store, links, account),
    /** Who registered, newest first (the back office's list of customers). */
    joined: (offset: number, limit: number) => store.joined(offset, limit),
    userByPhone: (phone: Phone) => store.userByPhone(phone),
    phoneOf: (userId: number) => store.phoneOf(userId),
    /** The receipt of a cash-in, credit or reversal; rebuilt from the books when it was lost. */
    receipt: (id: string) => receiptOf(ledger, store, id),
    /**
     * True the first time only: whether `side` is still to be told of transfer `id` ("agent": the
     * agent whose cash-in a reversal took back, neither its booker nor its party).
     */
    firstNotice: (id: string, side: NoticeSide) => store.firstNotice(id, side),
    async setLocale(userId: number, locale: string) {
      await store.setLocale(userId, locale);
      for (const told of localeSet) told(userId, locale);
    },
    /**
     * `told` after each language this process sets, once stored (the WhatsApp router's locale
     * cache forgets the person's). Other instances are not told.
     */
    onLocaleSet(told: (userId: number, locale: string) => void) {
      localeSet.add(told);
    },
    localeOf: (userId: number) => store.localeOf(userId),
    ownerAndLocale: (phone: Phone, orUserId: number) => store.ownerAndLocale(phone, orUserId),
    balanceOf: (acc: AccountId) => ledger.balance(acc),
    /** A customer's statement for [from, to): the monthly statement document (issue 30). */
    customerStatement: (userId: number, range: { from: number; to: number }) =>
      statementOf(ledger, account.customer(userId), range),

    /** An agent took `amountPaisa` in cash and credits the customer from the agent's balance. */
    cashIn(input: {
      id: string;
      agentUserId: number;
      customerUserId: number;
      amountPaisa: number;
    }) {
      return move(ledger, store, {
        id: input.id,
        kind: "cash_in",
        debit: account.agent(input.agentUserId),
        credit: account.customer(input.customerUserId),
        amountPaisa: input.amountPaisa,
        by: input.agentUserId,
        partyUserId: input.customerUserId,
      });
    },

    /** An admin credits an agent from the money the merchant put in (cash or bank). */
    creditAgent(input: {
      id: string;
      adminUserId: number;
      agentUserId: number;
      amountPaisa: number;
    }) {
      return move(ledger, store, {
        id: input.id,
        kind: "credit",
        debit: account.merchant.funding,
        credit: account.agent(input.agentUserId),
        amountPaisa: input.amountPaisa,
        by: input.adminUserId,
        partyUserId: input.agentUserId,
      });
    },

    /** The playground's demo credit of a customer or an agent, visible as such in the journal. */
    demoCredit(input: {
      id: string;
      to: "customer" | "agent";
      userId: number;
      amountPaisa: number;
    }) {
      return move(ledger, store, {
        id: input.id,
        kind: "demo_credit",
        debit: account.merchant.funding,
        credit: input.to === "agent" ? account.agent(input.userId) : account.customer(input.userId),
        amountPaisa: input.amountPaisa,
        by: 0,
        partyUserId: input.userId,
      });
    },

    /**
     * An admin's reversal: a new transfer back, never an edit. Refused when the party no longer has
     * the money (their balance would go below zero) with what they have and what is missing.
     */
    reverse: reverseWith(ledger, store),

    /**
     * An admin moves a customer's whole spendable balance to another customer (balance-move.ts):
     * once per form id, refused with its reason while money is held or when the balance changed.
     */
    moveBalance: moveBalanceWith(ledger, store),

    /** A customer's balance and newest movements (at most `n`, newest first). */
    async customerSummary(userId: number, n = 5) {
      const acc = account.customer(userId);
      const [balance, read] = await Promise.all([ledger.balance(acc), recentOf(ledger, now, acc)]);
      return {
        balance,
        movements: read.complete ? read.entries.slice(-n).reverse() : [],
        complete: read.complete,
      };
    },

    ...agentViews(ledger, now),
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
