import { roleIn } from "../../src/bot/deps.ts";
import type { Aside } from "../../src/bot/flow/toolkit.ts";
import { helpOptions, helpText } from "./command.ts";

/** /help in the middle of a flow: the same text, in the flow's language. */
export const helpAside: Aside = {
  commands: ["help"],
  async answer(s, u) {
    const { deps, t } = s;
    await u.reply(helpText(t, roleIn(deps.settings, u), helpOptions(deps)));
  },
};
