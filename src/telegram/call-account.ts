import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The account a Bot API call's message is for, when the sender knows it (an order's result: the
 * order's account; an idle notice: the flow's). A chat id alone may stand for two accounts: a
 * WhatsApp chat whose own account was released (/waid release) acts as its next holder's account,
 * so the WhatsApp router must tell the old account's messages from the new one's
 * (whatsapp/chat-calls.ts). Held for the call (AsyncLocalStorage), so the payload stays Telegram's.
 */
const held = new AsyncLocalStorage<number>();

/** Runs `call` (a Bot API call) with the account its message is for known to the transport. */
export const withAccount = <T>(account: number | undefined, call: () => Promise<T>): Promise<T> =>
  account === undefined ? call() : held.run(account, call);

/** The account the Bot API call being carried out is for, if its sender said it. */
export const accountOfCall = (): number | undefined => held.getStore();
