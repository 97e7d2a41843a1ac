import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { monthLabel, recentMonths } from "../../src/bot/statement-document.ts";
import { account } from "../../src/ledger/index.ts";
import { pdfText } from "../support/pdf-text.ts";
import { useTestSystem } from "../support/system.ts";

/**
 * Review s33-rvagent, 4: an agent's /statement is the statement of their own balance (the one
 * that pays their own orders), not of the agent balance they cash in from; it came captioned
 * "Your statement for <month>." and read "Available to spend at the start: Rs 0" while their
 * agent balance held Rs 1,000 and had moved. The caption now says whose balance it is and where
 * the agent balance's movements are.
 */

const AGENT = 4951;

describe("an agent's /statement", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT), ADMIN_IDS: "4952" },
  });
  const isDocument = (e: TranscriptEntry) => e.kind === "document";

  it("says it is their own balance's, and where the agent balance's movements are", async () => {
    await ts.system.ledger.transfer({
      id: "fund-4951",
      debit: account.merchant.funding,
      credit: account.agent(AGENT),
      amountPaisa: 100_000,
      kind: "credit",
    });
    const agent = ts.user(AGENT);
    await agent.say("/statement", /Which month's statement\?/);
    const month = monthLabel("en", recentMonths(Date.now(), 1)[0]!);
    const doc = await agent.tap(month, isDocument);
    expect(doc.text).toBe(
      `Your own balance's statement for ${month} (the balance that pays your own orders). Your agent balance and its movements: /balance, and My day in the back office (/dashboard).`,
    );
    // The document itself is the own balance's, as the caption says.
    expect(pdfText(doc.document!.bytes).text).toContain("Available to spend at the start: Rs 0");
  });
});
