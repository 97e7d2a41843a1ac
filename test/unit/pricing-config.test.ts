import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { DEFAULT_PRICE_SCHEDULE, quote } from "../../src/pricing/index.ts";

/** PRICE_SCHEDULE_FILE through loadConfig: a bad file stops the start, naming the file and the field. */

const dir = mkdtempSync(join(tmpdir(), "prices-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function problemsOf(path: string): string {
  try {
    loadConfig({ PRICE_SCHEDULE_FILE: path });
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems.join("\n");
  }
  return "";
}

describe("PRICE_SCHEDULE_FILE", () => {
  it("unset: the default schedule, face amount with no fee and no discount", () => {
    const c = loadConfig({});
    expect(c.pricing).toEqual({
      scheduleFile: undefined,
      schedule: DEFAULT_PRICE_SCHEDULE,
      inrToNprRateE4: 16_000,
    });
  });

  it("loads the example file", () => {
    const path = fileURLToPath(new URL("../../prices.example.json", import.meta.url));
    const c = loadConfig({ PRICE_SCHEDULE_FILE: path });
    expect(c.pricing.scheduleFile).toBe(path);
    const water = quote(c.pricing.schedule, {
      category: "water",
      operatorId: 46,
      amountPaisa: 100,
    });
    expect(water.feePaisa).toBe(500);
  });

  it("refuses a missing file", () => {
    const path = join(dir, "nowhere.json");
    expect(problemsOf(path)).toBe(`PRICE_SCHEDULE_FILE: ${path}: no such file`);
  });

  it("refuses a file that is not JSON", () => {
    const path = file("bad.json", '{ "default": { "fee": { "flat": "5" } }, }');
    expect(problemsOf(path)).toMatch(
      new RegExp(`^PRICE_SCHEDULE_FILE: ${path.replace(/[.\\]/g, "\\$&")}: not valid JSON \\(`),
    );
  });

  it("refuses a negative fee, naming the JSON path", () => {
    const path = file(
      "negative.json",
      '{ "categories": { "water": { "fee": { "flat": "-5" } } } }',
    );
    expect(problemsOf(path)).toBe(
      `PRICE_SCHEDULE_FILE: ${path}: categories.water.fee.flat: must not be negative (got "-5")`,
    );
  });

  it("refuses an unknown category, listing the known ones", () => {
    const path = file("category.json", '{ "categories": { "gas": { "fee": { "flat": "5" } } } }');
    const msg = problemsOf(path);
    expect(msg).toContain(`PRICE_SCHEDULE_FILE: ${path}: categories: unknown key "gas"`);
    expect(msg).toContain("mobile, datapack, dth, internet, landline, water, electricity, india");
  });

  it("names every bad field of one file, and other bad variables beside it", () => {
    const path = file(
      "several.json",
      JSON.stringify({
        default: { fee: { percent: "150" } },
        categories: { dth: { operators: { "7": { discount: { flat: "1.234" } } } } },
      }),
    );
    try {
      loadConfig({ PRICE_SCHEDULE_FILE: path, PORT: "9000", METRICS_PORT: "9000" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const { problems } = e as ConfigError;
      expect(problems).toContain(
        `PRICE_SCHEDULE_FILE: ${path}: default.fee.percent: must be at most 100 (percent)`,
      );
      expect(problems.join("\n")).toContain(
        `PRICE_SCHEDULE_FILE: ${path}: categories.dth.operators["7"].discount.flat: must be rupees`,
      );
      expect(problems.join("\n")).toContain("METRICS_PORT");
    }
  });
});

describe("INR_TO_NPR_RATE", () => {
  it("is the peg (1.6) by default and reads up to four decimals exactly", () => {
    expect(loadConfig({}).pricing.inrToNprRateE4).toBe(16_000);
    expect(loadConfig({ INR_TO_NPR_RATE: "1.6015" }).pricing.inrToNprRateE4).toBe(16_015);
    expect(loadConfig({ INR_TO_NPR_RATE: " 1.62 " }).pricing.inrToNprRateE4).toBe(16_200);
    expect(loadConfig({ INR_TO_NPR_RATE: "2" }).pricing.inrToNprRateE4).toBe(20_000);
  });

  it("refuses a bad rate at start, saying what a rate looks like", () => {
    for (const bad of ["1.60001", "-1.6", "1,6", "abc", "0", "0.0000", "1e1"]) {
      expect(() => loadConfig({ INR_TO_NPR_RATE: bad })).toThrow(
        /INR_TO_NPR_RATE: must (be Nepal rupees per 1 Indian rupee with at most four decimals|be above zero)/,
      );
    }
  });
});
