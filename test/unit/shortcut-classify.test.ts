import { describe, expect, it } from "vitest";
import { classify } from "../../conversations/shortcut/classify.ts";

/** Which flow a message that is only a number or an id starts (issue 30, shortcuts). */
describe("a bare number or id", () => {
  it.each([
    ["9841234567", "9841234567", ["mobile"]],
    ["+977 984-123-4567", "9841234567", ["mobile"]],
    ["०९८५१२३४५६७", "9851234567", ["mobile"]],
    ["9801234567", "9801234567", ["datapack"]],
    ["+91 98765 43210", "9876543210", ["india"]],
    ["7012345678", "7012345678", ["india"]],
    ["DH123456", "DH123456", ["dth", "internet"]],
    ["ram.k2024", "ram.k2024", ["dth", "internet"]],
  ])("%s → %s in %j", (text, number, categories) => {
    expect(classify(text)).toEqual({ number, categories });
  });

  it.each(["", "hello", "150", "12345", "/start", "status 123", "pay 9841234567", "hello bot"])(
    "%j is no shortcut",
    (text) => {
      expect(classify(text)).toBeNull();
    },
  );
});
