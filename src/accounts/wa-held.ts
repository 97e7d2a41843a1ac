import type { Phone } from "./phone.ts";
import type { AccountsStore } from "./store.ts";
import type { WaDecision, WaHold } from "./wa-identity.ts";

/** How long this process trusts a read of whether an account waits on a hold (`waHeldNow`). */
export const WA_HELD_TRUST_MS = 5_000;
/** Accounts whose hold state this process keeps at most; the oldest go first. */
const WA_HELD_MAX = 10_000;

/**
 * Which Meta user id a WhatsApp-born account belongs to, and the holds and decisions when its
 * number writes with another one (accounts/wa-identity.ts): nothing is opened or moved until an
 * admin decides. `waHeldNow` answers from what this process knows: a hold or a decision made here
 * is known at once, a read is trusted for WA_HELD_TRUST_MS (another instance's hold or decision
 * is seen after at most that long).
 */
export const waIdentityOf = (store: AccountsStore, now: () => number) => {
  const known = new Map<number, { held: boolean; at: number }>();
  const note = (userId: number, held: boolean) => {
    known.delete(userId);
    known.set(userId, { held, at: now() });
    if (known.size > WA_HELD_MAX) known.delete(known.keys().next().value as number);
  };
  return {
    /** The Meta user id a WhatsApp-born account belongs to: recorded, else this one (first use). */
    adoptWaUser: (userId: number, waUserId: string) => store.adoptWaUser(userId, waUserId),
    waUserOf: (userId: number) => store.waUserOf(userId),
    async holdWa(userId: number, hold: WaHold) {
      const stands = await store.holdWa(userId, hold);
      note(userId, true);
      return stands;
    },
    waHoldOf: (userId: number) => store.waHoldOf(userId),
    nextWaFresh: () => store.nextWaFresh(),
    /**
     * Whether the account's messages are kept from its WhatsApp chat (a hold waits, or its number
     * was released from it: `waPushBlocked`), from this process's knowledge when fresh (no
     * read), else one script.
     */
    async waHeldNow(userId: number): Promise<boolean> {
      const hit = known.get(userId);
      if (hit && now() - hit.at < WA_HELD_TRUST_MS) return hit.held;
      const held = await store.waPushBlocked(userId);
      note(userId, held);
      return held;
    },
    async decideWa(phone: Phone, decision: WaDecision, by: number, at: number, id?: string) {
      const d = await store.decideWa(phone, decision, by, at, id);
      // Released: the account's messages stay off the number's chat (its next holder's).
      if (d !== null && !("other" in d)) note(d.account, d.decision === "release");
      return d;
    },
  };
};
