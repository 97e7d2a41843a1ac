import type { Phone } from "../../src/accounts/phone.ts";
import { type TestSystem, type TestUser, useTestSystem } from "./system.ts";
import { waitUntil } from "./wait.ts";
import { WhatsAppChatUser } from "./whatsapp-chat.ts";
import {
  confirm,
  creditPerson,
  linkWhatsAppTo,
  openCategory,
  standInOf,
  waPerson,
} from "./whatsapp-steps.ts";

/**
 * The rig of the tests of a WhatsApp number whose Meta user id changed (Asha's account, Bikash
 * writing from her number: held) and that an admin released (`waid +<phone> release`): the whole
 * product in prepaid mode on real Redis with one WhatsApp admin, the people of the story as chats
 * on the stand-in, an order as a customer places it and its end by the reconciler run by hand.
 * Each step is one a person (or the admin) takes, so a test keeps its own order of them.
 */

/** Bikash's answer while the number is held for the admin's decision. */
export const HELD = /under review by our support/;

/**
 * The reconciler left to the test (its interval an hour) and taking orders of any age: with the
 * aggregator's webhooks dropped (`dropWebhooks`), an order ends only when `ended` runs it.
 */
export const RECONCILE_BY_HAND = { RECONCILE_INTERVAL_MS: "3600000", RECONCILE_MIN_AGE_MS: "0" };

/**
 * The test system of a file (prepaid, real Redis, `wa:<adminPhone>` the admin, `env` added) and
 * the steps of its released-number stories on it.
 */
export function useReleasedChatRig(adminPhone: string, env: Record<string, string> = {}) {
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${adminPhone}`, ...env },
  });
  return { ts, ...releasedChatSteps(ts, adminPhone) };
}

/** A phone on the stand-in, written from by `name` (with that Meta user id, if given). */
export function waUserOf(ts: TestSystem, phone: string, name: string, userId?: string) {
  return new WhatsAppChatUser(standInOf(ts), phone, { name, ...(userId ? { userId } : {}) });
}

/** Opens the mobile top-up of 9841234567 for Rs `rupees` and confirms it; its reference. */
export async function mobileOrder(u: WhatsAppChatUser, rupees: number): Promise<string> {
  await openCategory(u, /Mobile top-up/, /Which mobile number should I recharge/);
  await u.say("9841234567", /How much\?/);
  await u.say(`Rs ${rupees}`, /Please check your order/);
  return (await confirm(u)).ref;
}

/** The aggregator's webhooks dropped: an order ends only when the reconciler is run. */
export function dropWebhooks(ts: TestSystem): void {
  ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
}

/** Runs the reconciler until every order of `refs` has succeeded. */
export function ended(ts: TestSystem, ...refs: string[]): Promise<unknown> {
  return waitUntil(
    async () => {
      await ts.system.reconciler.runOnce();
      for (const ref of refs) {
        if ((await ts.system.orders.get(ref))?.status !== "success") return false;
      }
      return true;
    },
    refs.length > 1 ? "the orders' end" : "the order's end",
  );
}

/** The outcomes of order `ref`'s final push as the sent log has them, once there is one. */
export async function finalPushesOf(ts: TestSystem, ref: string) {
  const pushes = async () =>
    (await ts.system.sentLog.list(ref)).filter((e) => e.status === "success");
  await waitUntil(async () => (await pushes()).length > 0, "the push's outcome written down");
  return pushes();
}

/** The account that holds `phone` now (0 if none): after a release, the fresh one. */
export async function holderOf(ts: TestSystem, phone: string): Promise<number> {
  return (await ts.system.deps.accounts.userByPhone(phone as Phone)) ?? 0;
}

/**
 * Whether the router kept a message of the released account `old` from the number's chat: with
 * no other chat of the account left, it is refused as not delivered (400, dead-lettered).
 */
export function withheldIn(ts: TestSystem, old: number): boolean {
  return ts.logs.some(
    (l) => l.includes("the account has no chat") && l.includes(`"account":${old}`),
  );
}

/** The steps of a released-number story on `ts`, whose admin writes from `adminPhone`. */
export function releasedChatSteps(ts: TestSystem, adminPhone: string) {
  const waUser = (phone: string, name: string, userId?: string) =>
    waUserOf(ts, phone, name, userId);
  const admin = () => waUser(adminPhone, "Admin", "NP.admin");

  /**
   * The admin's chat opened, and Asha's WhatsApp account on `phone` (Meta user id
   * `NP.asha-<tag>`) greeted, credited with `paisa` if given; `old` is that account.
   */
  const oldHolder = async (phone: string, tag: string, paisa = 0) => {
    const a = admin();
    await a.say("hi");
    const asha = waUser(phone, "Asha", `NP.asha-${tag}`);
    await asha.say("hi", /Namaste Asha/);
    const old = waPerson(phone);
    if (paisa > 0) await creditPerson(ts, old, paisa);
    return { admin: a, asha, old };
  };

  /** `name` (Meta user id `NP.<name>-<tag>`, lower case) writes from `phone`: held. */
  const heldBy = async (phone: string, tag: string, name = "Bikash") => {
    const next = waUser(phone, name, `NP.${name.toLowerCase()}-${tag}`);
    await next.say("balance", HELD);
    return next;
  };

  /** The admin releases `phone` from its account; the admin's reply. */
  const release = (phone: string) =>
    admin().say(`waid +${phone} release`, /was released from account/);

  /** Bikash (Meta user id `NP.bikash-<tag>`) writes from `phone`, held; the admin releases it. */
  const releaseTo = async (phone: string, tag: string) => {
    const bikash = await heldBy(phone, tag);
    await release(phone);
    return bikash;
  };

  /**
   * The new holder registers `phone` on Telegram as user `tgId` (credited with `paisa` if given)
   * and joins the number's chat to that account with the code sent there; the Telegram user.
   */
  const joinedOnTelegram = async (
    chat: WhatsAppChatUser,
    phone: string,
    tgId: number,
    paisa = 0,
  ): Promise<TestUser> => {
    const tg = ts.user(tgId);
    await tg.register(phone);
    if (paisa > 0) await tg.credit(paisa);
    await linkWhatsAppTo(chat, tg);
    return tg;
  };

  return {
    waUser,
    admin,
    order: mobileOrder,
    dropWebhooks: () => dropWebhooks(ts),
    ended: (...refs: string[]) => ended(ts, ...refs),
    finalPushesOf: (ref: string) => finalPushesOf(ts, ref),
    holderOf: (phone: string) => holderOf(ts, phone),
    withheldIn: (old: number) => withheldIn(ts, old),
    oldHolder,
    heldBy,
    release,
    releaseTo,
    joinedOnTelegram,
  };
}
