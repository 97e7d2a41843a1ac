import { describe, expect, it } from "vitest";
import { expectParts } from "../support/chat.ts";
import { detailsOf, type TestUser, useTestSystem } from "../support/system.ts";

/**
 * Issue 16, "Say the right thing" 1: an India mobile number's series suggests its operator and
 * circle (one button first, the full list beside it), always changeable; a number in no known
 * series gets the plain list. As chats, in English and Hindi.
 */
describe("India: operator and circle suggested from the number", () => {
  const ts = useTestSystem();
  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);

  const PREPAID = ["Jio Prepaid", "Airtel Prepaid", "Vi Prepaid", "BSNL Prepaid"];

  async function toNumber(u: TestUser, locale: string, kind = "india-kind-prepaid") {
    await u.say("/recharge", t(locale, "menu-prompt"));
    await u.tap(t(locale, "menu-india"));
    await u.tap(t(locale, kind));
  }

  it("a number in a known series: the suggestion first; taking it answers the circle too", async () => {
    const u = ts.user(1651);
    await toNumber(u, "en");
    const ops = await u.say("9810012345", /Airtel Prepaid · Delhi NCR/);
    expect(ops.text).toContain(
      "9810012345 is in a number series of Airtel Prepaid · Delhi NCR. Numbers can move to another operator, so this is only a suggestion",
    );
    expect(u.buttons(ops)).toEqual([
      "Airtel Prepaid · Delhi NCR (suggested)",
      ...PREPAID,
      "‹ Back",
      "✖ Cancel",
    ]);
    // No circle question: the suggestion answered it.
    await u.tap("Airtel Prepaid · Delhi NCR (suggested)", /Choose a plan for 9810012345/);
    const confirm = await u.say("100", /Please check your order/);
    expectParts(confirm.text, ["Operator: Airtel Prepaid", "Circle: Delhi NCR", "Amount: ₹100"]);
    const { ref } = await u.confirmUntil("succeeded");
    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({ operatorId: 202, connectionNo: "9810012345" });
    expect(detailsOf(order, "india").circleId).toBe("5");
  });

  it("another operator than the suggestion: the circle is asked, the series' circle first", async () => {
    const u = ts.user(1652);
    await toNumber(u, "en");
    await u.say("9811012345", /Vi Prepaid · Delhi NCR/);
    const circles = await u.tap("Jio Prepaid", /Which telecom circle/);
    expect(u.buttons(circles)[0]).toBe("Delhi NCR (suggested)");
    // Once only: the suggested circle is not in the list a second time.
    expect(u.buttons(circles).filter((b) => b.startsWith("Delhi"))).toHaveLength(1);
    // Back from the circle: the operator list with the suggestion again.
    await u.tap("‹ Back", /Vi Prepaid · Delhi NCR/);
    await u.tap("Jio Prepaid", /Which telecom circle/);
    await u.say("mumbai", /Choose a plan for 9811012345/);
    const confirm = await u.say("150", /Please check your order/);
    expectParts(confirm.text, ["Operator: Jio Prepaid", "Circle: Mumbai"]);
    await u.tap("✖ Cancel", /Cancelled/);
  });

  it("a number in no known series: the plain list, and the circle asked without a suggestion", async () => {
    const u = ts.user(1653);
    await toNumber(u, "en");
    const ops = await u.say("6123456789", /Prepaid mobile: which operator\?/);
    expect(ops.text).not.toContain("suggest");
    expect(u.buttons(ops)).toEqual([...PREPAID, "‹ Back", "✖ Cancel"]);
    const circles = await u.tap("Vi Prepaid", /Which telecom circle/);
    expect(u.buttons(circles)[0]).toBe("Andhra Pradesh");
    expect(u.buttons(circles).join(" ")).not.toContain("suggested");
  });

  it("in Hindi: the suggestion in Hindi; a series whose operator sells no postpaid suggests the circle only", async () => {
    const u = ts.user(1654, { language_code: "hi" });
    await toNumber(u, "hi");
    const ops = await u.say("9415012345", /BSNL Prepaid · UP East/);
    expect(ops.text).toContain("सिर्फ़ सुझाव");
    expect(u.buttons(ops)[0]).toBe("BSNL Prepaid · UP East (सुझाव)");
    await u.tap("BSNL Prepaid · UP East (सुझाव)", /9415012345 के लिए प्लान चुनिए/);
    expect(u.botTexts().join("\n")).not.toMatch(/suggested|series/);

    const v = ts.user(1655, { language_code: "hi" });
    await toNumber(v, "hi", "india-kind-postpaid");
    const plain = await v.say("9415012345", /पोस्टपेड मोबाइल: कौन सा ऑपरेटर\?/);
    expect(v.buttons(plain)).toEqual([
      "Jio Postpaid",
      "Airtel Postpaid",
      "Vi Postpaid",
      "‹ पीछे",
      "✖ रद्द करें",
    ]);
    const circles = await v.tap("Airtel Postpaid", /टेलीकॉम सर्किल/);
    expect(v.buttons(circles)[0]).toBe("UP East (सुझाव)");
  });
});
