import type { LinkStore } from "./links.ts";
import type { Phone } from "./phone.ts";
import type { AccountsStore } from "./store.ts";

/**
 * Where the messages of an account kept from its WhatsApp chat go instead (`waPushBlocked`).
 * While a hold waits, nowhere ("held": an admin has not decided who the person is). Once its
 * number was released (/waid release) the account is still its old holder's, and its order
 * results, receipts and notices are theirs: they go to the WhatsApp number it holds now, if any,
 * else to a Telegram chat joined to it (a Telegram user who linked with a code), else nowhere (null).
 * Asked only for a blocked account's push, so the links are scanned (no reverse index).
 */
export type ReleasedReach = "held" | { phone: Phone } | { channel: number } | null;

export async function releasedReachOf(
  store: Pick<AccountsStore, "waHoldOf" | "phoneOf" | "userByPhone">,
  links: Pick<LinkStore, "channelsOf">,
  account: number,
): Promise<ReleasedReach> {
  if ((await store.waHoldOf(account)) !== null) return "held";
  const phone = await store.phoneOf(account);
  if (phone !== null && (await store.userByPhone(phone)) === account) return { phone };
  const channels = await links.channelsOf(account);
  // Telegram chats only (LinkStore.channelsOf); the lowest id first, so the choice is stable.
  const channel = channels.sort((a, b) => a - b)[0];
  return channel === undefined ? null : { channel };
}
