import type { BlockedUsers, Phone, Profile } from "../../accounts/index.ts";
import type { Order } from "../../orders/index.ts";

/**
 * What the customers and agents pages (issue 29) read beside the books: who registered with which
 * phone (src/accounts), the blocked list (src/accounts/blocked.ts, the same store the chat reads on
 * every access check), and a person's newest orders (for the holds still open). The composition
 * root builds it from the accounts service and the stores.
 */
export interface DashboardPeople {
  phoneOf(userId: number): Promise<Phone | null>;
  userByPhone(phone: Phone): Promise<number | null>;
  profileOf(userId: number): Promise<Profile | null>;
  localeOf(userId: number): Promise<string | null>;
  blocked: BlockedUsers;
  /** Newest first. */
  ordersOf(userId: number, limit: number): Promise<Order[]>;
  /** Who registered (with a profile), newest first: `limit` ids after `offset`. Absent: no list. */
  joined?(offset: number, limit: number): Promise<number[]>;
}
