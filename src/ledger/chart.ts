import { z } from "zod";

/**
 * The chart of accounts: the account ids of the merchant's books, built here and nowhere else
 * (not the customers' records of src/accounts). An id is text ("customer:5555",
 * "merchant:float") so it reads the same in a journal line, a Redis field and a CSV column. The
 * characters are restricted so an id can be a field-name part in Redis ("<account>|cp") and a CSV
 * cell without quoting.
 */

const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const ACCOUNT_ID =
  /^(customer:[1-9][0-9]{0,19}|agent:[a-z0-9][a-z0-9_-]{0,39}|merchant:(sales|float|funding|fees|commission|adjustments|gateway:[a-z0-9][a-z0-9_-]{0,39}))$/;

export const accountIdSchema = z
  .string()
  .regex(ACCOUNT_ID, "not a ledger account id")
  .brand<"AccountId">();
export type AccountId = z.infer<typeof accountIdSchema>;

const id = (text: string): AccountId => accountIdSchema.parse(text);

function named(kind: string, name: string): AccountId {
  if (!NAME.test(name)) throw new RangeError(`${kind} name "${name.slice(0, 40)}" is not allowed`);
  return id(`${kind}:${name}`);
}

/** The account builder: every id in the program comes from here. */
export const account = {
  /** What the merchant owes a customer (the prepaid balance), by Telegram user id. */
  customer: (telegramId: number): AccountId => {
    if (!Number.isSafeInteger(telegramId) || telegramId <= 0) {
      throw new RangeError("a customer account needs a positive Telegram id");
    }
    return id(`customer:${telegramId}`);
  },
  /** What the merchant owes an agent (the agent's float). */
  agent: (agentId: string | number): AccountId => named("agent", String(agentId)),
  merchant: {
    /** Customers' payments for orders (holds credit it, posts make it final). */
    sales: id("merchant:sales"),
    /** The merchant's wallet at the aggregator, as the books see it (debit-normal). */
    float: id("merchant:float"),
    /** Money the merchant put in: cash, bank, demo credit (debit-normal). */
    funding: id("merchant:funding"),
    /** Payments received through a gateway, not yet settled to the bank (debit-normal). */
    gateway: (name: string): AccountId => named("merchant:gateway", name),
    /** Fee income. */
    fees: id("merchant:fees"),
    /** Commission the aggregator credited. */
    commission: id("merchant:commission"),
    /** The other side of an admin's correction. */
    adjustments: id("merchant:adjustments"),
  },
} as const;

/**
 * TigerBeetle's `debits_must_not_exceed_credits`, for the accounts of people the merchant owes:
 * a customer's or an agent's debits (posted and pending) never exceed its posted credits.
 * The merchant's own accounts carry no such flag (a low float alerts instead).
 */
export function debitsMustNotExceedCredits(a: AccountId): boolean {
  return a.startsWith("customer:") || a.startsWith("agent:");
}
