import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/**
 * Issue 30, "Shortcuts every app has", as a customer meets them: "typing…" while a lookup runs, a
 * bare number that starts the right flow, NTC's line taken from the number's series, deep links.
 */
describe("shortcuts, end to end", () => {
  const ts = useTestSystem();

  it("shows typing… while a slow subscriber lookup runs, until its answer arrives", async () => {
    const u = ts.user(3101);
    const sandbox = ts.system.sandbox!;
    const token = ts.system.config.sandbox.token;
    await u.menu("📺 TV (DTH)", /Which TV \(DTH\) operator/);
    await u.tap("Dish Home", /Your Dish Home customer id/);
    const seen: string[] = [];
    const offTyping = u.emu.on("typing", (e) => {
      if (e.chatId === u.id) seen.push(`typing:${e.action}`);
    });
    const offMessage = u.emu.on("message", (e) => {
      if (e.chatId === u.id && e.message.from === "bot") seen.push(e.message.text.split("\n")[0]!);
    });
    // The provider takes its time: the chat shows "typing…" meanwhile.
    sandbox.setFaults(token, { latencyMs: 1500 });
    try {
      const { message_id } = u.emu.sendText(u.id, "DH123456");
      const typing = await u.emu.waitFor(() => u.emu.typing(u.id));
      expect(typing.action).toBe("typing");
      await u.emu.waitForBotMessage(u.id, /Dish Home subscriber DH123456/, {
        afterId: message_id,
        timeoutMs: 8000,
      });
    } finally {
      sandbox.clearFaults(token);
      offTyping();
      offMessage();
    }
    // "typing…" came first, then the answer, which ended it.
    expect(seen[0]).toBe("typing:typing");
    expect(seen.findIndex((s) => /subscriber DH123456/.test(s))).toBeGreaterThan(0);
    expect(u.emu.typing(u.id)).toBeUndefined();
  });
});
