import { expect } from "vitest";

/**
 * One playground user driven over the playground's JSON API, as the chat page drives it: for
 * tests of a started process (`npm start`, main.ts), which have no emulator object of their own.
 */

interface MessageView {
  id: number;
  from: "bot" | "user";
  text: string;
  inline_keyboard: { text: string; callback_data?: string }[][] | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function playgroundUser(base: string, userId: number) {
  const api = `${base}/playground/api/users/${userId}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { message_id: number };
  };
  const waitForBot = async (pattern: RegExp, afterId: number): Promise<MessageView> => {
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${api}/messages`);
      const { messages } = (await res.json()) as { messages: MessageView[] };
      const hit = messages.find((m) => m.from === "bot" && m.id > afterId && pattern.test(m.text));
      if (hit) return hit;
      await sleep(50);
    }
    throw new Error(`no bot message matching ${pattern}`);
  };
  let last: MessageView | undefined;
  const user = {
    async say(text: string, answer: RegExp) {
      const sent = await post("/messages", { text });
      last = await waitForBot(answer, sent.message_id);
      return last;
    },
    /** Taps the button matching `label` on the bot's last answer. */
    async tap(label: RegExp, answer: RegExp) {
      const button = last?.inline_keyboard?.flat().find((b) => label.test(b.text));
      if (!last || !button?.callback_data)
        throw new Error(`no button ${label} on the last message`);
      await post("/callbacks", { message_id: last.id, data: button.callback_data });
      last = await waitForBot(answer, last.id);
      return last;
    },
    /** A mobile top-up up to its confirmation (the number's series names the operator). */
    async mobileToConfirm(number: string, amount: string) {
      await user.say("/recharge", /What would you like to pay/);
      await user.tap(/Mobile top-up/, /Which mobile number/);
      await user.say(number, new RegExp(`${number} · NTC .*\\nHow much\\?`));
      return user.say(amount, /Please check your order/);
    },
  };
  return user;
}
