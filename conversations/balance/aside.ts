import { roleIn } from "../../src/bot/deps.ts";
import type { Aside } from "../../src/bot/flow/toolkit.ts";
import { balanceText, fetchBalance } from "./command.ts";

/** /balance in the middle of a flow: read through `external`, so a replay shows what was shown. */
export const balanceAside: Aside = {
  commands: ["balance"],
  async answer(s, u) {
    const userId = u.from?.id ?? 0;
    const role = roleIn(s.deps.settings, u);
    const result = await s.conversation.external(() => fetchBalance(s.deps, userId, role));
    await u.reply(balanceText(s.t, result));
  },
};
