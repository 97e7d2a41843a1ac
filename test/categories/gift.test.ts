import { describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { expectParts } from "../support/chat.ts";
import { ledgerFor, useTestSystem } from "../support/system.ts";
import { gift } from "./gift/index.ts";

/**
 * The proof that a category is one folder: "gift recharge" is defined entirely in ./gift/ (order
 * part, conversation, strings), handed to the system in its category list, and ordered through
 * the chat against the embedded sandbox like any built-in category.
 */
describe("a category defined in a test folder", () => {
  const ts = useTestSystem({ categories: [...CATEGORY_MODULES, gift] });

  it("is on the menu, is ordered, debited once at the sandbox, and the books balance", async () => {
    const u = ts.user(131);
    await u.menu("🎁 Gift recharge", /Which number gets the gift/);
    const amounts = await u.say("9841231310", /Which gift/);
    expect(u.buttons(amounts)).toEqual(["Rs 100", "Rs 200", "Rs 500", "✖ Cancel"]);
    const confirm = await u.tap("Rs 200", /Please check your order/);
    expectParts(confirm.text, [
      "Operator: NTC Prepaid",
      "Number / account: 9841231310",
      "A gift recharge",
      "Amount: Rs 200",
    ]);
    const { ref, push } = await u.confirmUntil("succeeded");
    expect(push.text).toContain("NTC Prepaid · 9841231310 · Rs 200");

    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      category: "gift",
      status: "success",
      amountPaisa: 20_000,
      details: { gift: "20000" },
    });
    // One debit at the aggregator, for the face amount.
    const debits = ledgerFor(ts, ref);
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ amountPaisa: 20_000 });
    expect((await ts.system.ledger.check()).ok).toBe(true);
  });
});
