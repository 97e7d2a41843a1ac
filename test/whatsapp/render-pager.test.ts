import { describe, expect, it } from "vitest";
import { renderMessage } from "../../src/whatsapp/render.ts";
import type { WaOutbound } from "../../src/whatsapp/types.ts";

const rowIds = (m: WaOutbound | undefined): string[] => {
  const sections = (m as { interactive?: { action?: { sections?: { rows: { id: string }[] }[] } } })
    ?.interactive?.action?.sections;
  return (sections ?? []).flatMap((s) => s.rows.map((r) => r.id));
};

describe("render: a keyboard that repeats a callback data", () => {
  it("sends one row per data (a two-page pager's ‹ and › both lead to page 2)", () => {
    const packs = Array.from({ length: 5 }, (_, i) => ({ label: `Pack ${i}`, data: `v:${i}` }));
    const pager = [
      { label: "‹", data: "p:1" },
      { label: "1/2", data: "p:0" },
      { label: "›", data: "p:1" },
    ];
    const r = renderMessage({
      text: "Choose a package",
      rows: [packs, pager, [{ label: "✖ Cancel", data: "x" }]],
      opener: "Choose",
    });
    const ids = r.messages.flatMap(rowIds);
    expect(ids).toEqual(["v:0", "v:1", "v:2", "v:3", "v:4", "p:0", "p:1", "x"]);
    expect(r.choices.find((c) => c.data === "p:1")?.label).toBe("›");
  });
});
