import {
  type AccountId,
  account,
  type Balance,
  JOURNAL_PAGE_MAX,
  type JournalEntry,
  type LedgerStore,
  transferInputSchema,
} from "../ledger/index.ts";
import { nepalDayStart } from "../nepal-time.ts";
import { createMemoryLinks, type LinkStore } from "./links.ts";
import type { Phone } from "./phone.ts";
import { releasedReachOf } from "./released-reach.ts";
import { statementOf } from "./statement.ts";
import type { AccountsStore, ProfileInput, Receipt } from "./store.ts";
import type { HeldTaker } from "./take-held.ts";
import { waIdentityOf } from "./wa-held.ts";

/**
 * Money coming in, as people move it: an agent takes cash and credits a customer from the agent's
 * own balance, an admin credits an agent from the money the merchant put in, an admin reverses
 * either with a reason. Every one is a ledger transfer under an id the caller fixed before its
 * confirm step, so a double tap or a replay books it once; a reversal is a new transfer whose id
 * is derived from the one it reverses, so reversing twice books once.
 */

export type MoveResult =
  | { ok: true; duplicate: boolean; receipt: Receipt; debitAfter: Balance; creditAfter: Balance }
  | { ok: false; code: "insufficient_funds"; availablePaisa: number; shortfallPaisa: number }
  /** The id was used before for another transfer (cannot happen with fresh ids; loud if it does). */
  | { ok: false; code: "id_conflict" };

export type ReverseResult =
  | MoveResult
  | { ok: false; code: "unknown" }
  | { ok: false; code: "not_reversible" }
  | { ok: false; code: "already_reversed"; receipt: Receipt | null };

/**
 * Who is told of a transfer: who booked it, whom it moved money for, a reversed cash-in's agent;
 * `heard:<user>`, that one staff member heard of its outcome (two admins confirm the same
 * reversal: one books it and hears "done", the other hears "already reversed").
 */
export type NoticeSide = "by" | "party" | "agent" | `heard:${number}`;

/**
 * Thrown when a transfer is refused before the books were touched (its input fails the ledger's
 * own checks): nothing was booked, and running it again under the same id cannot book it either.
 * Every other error of a booking leaves its outcome unknown.
 */
export class NotBookedError extends Error {
  override name = "NotBookedError";
}

/** The id of the reversal of transfer `id`: one per transfer, whatever the reason typed. */
const reversalIdOf = (id: string) => `rev-${id}`;

/** Kinds an admin may reverse: money that came in through people, never an order's hold. */
const REVERSIBLE: ReadonlySet<Receipt["kind"]> = new Set(["cash_in", "credit", "demo_credit"]);

/** Customer's and agent's journal windows, newest last; older windows first when quiet. */
const WINDOWS_MS = [7 * 24 * 3_600_000, 24 * 3_600_000, 3_600_000];
const MAX_PAGES = 5;

/** How far back an agent's /balance statement reads. */
const AGENT_STATEMENT_MS = 30 * 24 * 3_600_000;

/** The agent's "today" is the Nepal day, as the spend limits count it. */
export { nepalDayStart };

/** The user id of a customer's or an agent's account ("customer:5555" -> 5555); else undefined. */
function userOfAccount(acc: AccountId): number | undefined {
  const [kind, id] = acc.split(":");
  if (kind !== "customer" && kind !== "agent") return undefined;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A receipt rebuilt from the books' entry of transfer `e`, for a booking whose receipt write was
 * lost: everything but who booked a credit or a reversal is in the entry (a cash-in's agent is
 * its debit), and `rebuilt` says so. Null for kinds that have no receipt (orders, top-ups).
 */
function receiptFromEntry(e: JournalEntry): Receipt | null {
  if (e.kind !== "cash_in" && e.kind !== "credit" && e.kind !== "demo_credit") {
    if (e.kind !== "reversal" || !e.reference) return null;
  }
  const kind = e.kind as Receipt["kind"];
  // The party of a reversal is the one it takes back from: the original's party, its debit now.
  const party = userOfAccount(kind === "reversal" ? e.debit : e.credit);
  const by = kind === "cash_in" ? (userOfAccount(e.debit) ?? 0) : 0;
  return {
    id: e.id,
    kind,
    debit: e.debit,
    credit: e.credit,
    amountPaisa: e.amountPaisa,
    by,
    ...(party === undefined ? {} : { partyUserId: party }),
    ...(kind === "reversal" ? { reverses: e.reference, reason: e.reason } : {}),
    at: e.at,
    ...(kind === "cash_in" || kind === "demo_credit" ? {} : { rebuilt: true as const }),
  };
}

/**
 * The receipt of transfer `id`: the one kept beside the books, else rebuilt from the books' own
 * entry (the receipt write failed after the booking). Only a booked transfer has one.
 */
async function receiptOf(
  ledger: LedgerStore,
  store: AccountsStore,
  id: string,
): Promise<Receipt | null> {
  const kept = await store.receipt(id);
  if (kept) return kept;
  const e = await ledger.entryOf(id);
  return e ? receiptFromEntry(e) : null;
}

/** A transfer in the books and its receipt, the two written one after the other. */
async function move(
  ledger: LedgerStore,
  store: AccountsStore,
  r: Omit<Receipt, "at">,
  extra: { reason?: string; reference?: string } = {},
): Promise<MoveResult> {
  // Checked here, before the books, so a refusal is known to have booked nothing (the ledger
  // checks the same, but its error cannot be told from one after its script ran).
  const input = transferInputSchema.safeParse({
    id: r.id,
    debit: r.debit,
    credit: r.credit,
    amountPaisa: r.amountPaisa,
    kind: r.kind,
    ...(extra.reference ? { reference: extra.reference } : {}),
    ...(extra.reason ? { reason: extra.reason } : {}),
  });
  if (!input.success) {
    throw new NotBookedError(`transfer ${r.id.slice(0, 60)} refused: ${input.error.message}`);
  }
  const booked = await ledger.transfer(input.data);
  if (!booked.ok) {
    const refusal = booked.refusal;
    if (refusal.code === "insufficient_funds") {
      return {
        ok: false,
        code: "insufficient_funds",
        availablePaisa: refusal.availablePaisa,
        shortfallPaisa: refusal.shortfallPaisa,
      };
    }
    return { ok: false, code: "id_conflict" };
  }
  // After the transfer, in another slot (no atomic step spans both): a failure from here on
  // throws with the transfer booked. The flow then offers to run this again under the same id
  // (the transfer answers as a duplicate and the receipt is written), and until then the receipt
  // is rebuilt from the books' own entry (`receiptOf`), so the booking can be reversed.
  // A reversal's id is shared by every admin reversing the same receipt, so a duplicate one may
  // have been booked by another admin: it writes no receipt (that admin's, written after, is
  // kept; one lost stays rebuilt from the books, who booked it "not known"), never naming whoever
  // confirmed second as the booker. Other ids are one conversation's: a duplicate is its Check.
  const othersBooking = booked.duplicate && r.kind === "reversal";
  if (!othersBooking) await store.putReceipt({ ...r, at: booked.entry.at });
  const receipt = (await store.receipt(r.id)) ??
    (othersBooking ? receiptFromEntry(booked.entry) : null) ?? { ...r, at: booked.entry.at };
  return {
    ok: true,
    duplicate: booked.duplicate,
    receipt,
    debitAfter: await ledger.balance(r.debit),
    creditAfter: await ledger.balance(r.credit),
  };
}

/**
 * Journal entries touching `acc`, oldest first, from the widest window that could be read whole
 * (at most MAX_PAGES pages); `complete` is false when even the narrowest could not, and then
 * `entries` holds only the part read, which must not be shown as the whole. Read through the
 * account's own index (ledger/account-index.ts), as the statements are: only this account's
 * entries, so the rest of the shop's business never crowds them out (review s24-b, 2: the whole
 * journal's first 5,000 entries of the day hid a busy day's latest cash-ins).
 */
async function recentOf(
  ledger: LedgerStore,
  now: () => number,
  acc: AccountId,
  since?: number,
): Promise<{ entries: JournalEntry[]; complete: boolean }> {
  const windows = since === undefined ? WINDOWS_MS.map((w) => now() - w) : [since];
  let found: JournalEntry[] = [];
  for (const from of windows) {
    found = [];
    let after: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await ledger.accountEntries(acc, {
        from,
        limit: JOURNAL_PAGE_MAX,
        ...(after ? { after } : {}),
      });
      for (const l of page.lines) found.push(l.entry);
      if (!page.next) return { entries: found, complete: true };
      after = page.next;
    }
  }
  return { entries: found, complete: false };
}

/** What an agent's /balance reads: the day's cash-ins and the statement. */
function agentViews(ledger: LedgerStore, now: () => number) {
  return {
    /**
     * An agent's balance and the cash-ins of the current Nepal day, newest first; a cash-in an
     * admin reversed is not one of them (the money came back).
     */
    async agentSummary(agentUserId: number) {
      const acc = account.agent(agentUserId);
      const [balance, read] = await Promise.all([
        ledger.balance(acc),
        recentOf(ledger, now, acc, nepalDayStart(now())),
      ]);
      // A reversal of a cash-in of the day is booked after it, so it is in the same read (its
      // reference is the cash-in's id): the books say it, whether or not its receipt was kept.
      const reversed = new Set(
        read.entries
          .filter((e) => e.kind === "reversal" && e.credit === acc)
          .map((e) => e.reference),
      );
      const cashIns = read.entries.filter(
        (e) => e.kind === "cash_in" && e.debit === acc && !reversed.has(e.id),
      );
      return { balance, cashIns: cashIns.reverse(), complete: read.complete };
    },

    /**
     * An agent's last `n` movements of the last 30 days (credits received, cash-ins made,
     * reversals), newest first, each with the balance right after it; null when the range is too
     * long to read whole.
     */
    async agentStatement(agentUserId: number, n = 10) {
      const s = await statementOf(ledger, account.agent(agentUserId), {
        from: now() - AGENT_STATEMENT_MS,
        to: now() + 1,
      });
      return s.complete ? s.lines.slice(-n).reverse() : null;
    },
  };
}

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

/** `reverse` of createAccounts, over its ledger and store. */
const reverseWith =
  (ledger: AccountsOptions["ledger"], store: AccountsOptions["store"]) =>
  async (input: {
    originalId: string;
    adminUserId: number;
    reason: string;
  }): Promise<ReverseResult> => {
    const original = await receiptOf(ledger, store, input.originalId);
    if (!original) return { ok: false, code: "unknown" };
    if (!REVERSIBLE.has(original.kind)) return { ok: false, code: "not_reversible" };
    const id = reversalIdOf(original.id);
    // Booked again when it was: the same reason answers as a duplicate (a Check after a failure,
    // or another admin's identical reversal: a receipt lost then is kept rebuilt, who booked it
    // not known), another reason conflicts and is "already reversed".
    const r = await move(
      ledger,
      store,
      {
        id,
        kind: "reversal",
        debit: original.credit,
        credit: original.debit,
        amountPaisa: original.amountPaisa,
        by: input.adminUserId,
        ...(original.partyUserId === undefined ? {} : { partyUserId: original.partyUserId }),
        reverses: original.id,
        reason: input.reason,
      },
      { reason: input.reason, reference: original.id },
    );
    // Another admin's reversal with another reason won the id meanwhile.
    if (!r.ok && r.code === "id_conflict") {
      return { ok: false, code: "already_reversed", receipt: await receiptOf(ledger, store, id) };
    }
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
