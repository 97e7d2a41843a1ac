import type { Phone } from "./phone.ts";
import type { AccountsStore } from "./store.ts";
import type { WaDecision, WaHold } from "./wa-identity.ts";

/**
 * Which Meta user id a WhatsApp-born account belongs to, and the holds and decisions when its
 * number writes with another one (accounts/wa-identity.ts): nothing is opened or moved until an
 * admin decides. `waHeldNow` reads the store at each push, so a hold or a decision made on any
 * instance is seen by the next push of every other (a remembered answer let another instance's
 * pushes reach the number's new holder for seconds after the hold).
 */
export const waIdentityOf = (store: AccountsStore) => ({
  /** The Meta user id a WhatsApp-born account belongs to: recorded, else this one (first use). */
  adoptWaUser: (userId: number, waUserId: string) => store.adoptWaUser(userId, waUserId),
  waUserOf: (userId: number) => store.waUserOf(userId),
  holdWa: (userId: number, hold: WaHold) => store.holdWa(userId, hold),
  waHoldOf: (userId: number) => store.waHoldOf(userId),
  /** A new account id for a released number's next holder, never one in use (`openWaFresh`). */
  openWaFresh: (base: number, waUserId: string) => store.openWaFresh(base, waUserId),
  /**
   * Whether the account's messages are kept from its WhatsApp chat (a hold waits, or its number
   * was released from it: `waPushBlocked`): one script, asked only for a message that is not an
   * answer to the chat's own sender (whatsapp/withheld.ts).
   */
  waHeldNow: (userId: number): Promise<boolean> => store.waPushBlocked(userId),
  decideWa: (phone: Phone, decision: WaDecision, by: number, at: number, id?: string) =>
    store.decideWa(phone, decision, by, at, id),
});
