/**
 * Who may spend (ACCESS_MODE), as one pure rule. prepaid: anyone registered (a shared phone
 * contact); the balance then decides. staff: only the listed users, from the merchant's wallet.
 * Either way a person the merchant blocked (blocked.ts) may not, whatever else holds.
 */
export type AccessVerdict = "ok" | "register" | "private" | "blocked";

export function accessVerdict(
  mode: "prepaid" | "staff",
  who: { registered: boolean; staff: boolean; blocked?: boolean },
): AccessVerdict {
  if (who.blocked) return "blocked";
  if (mode === "staff") return who.staff ? "ok" : "private";
  return who.registered ? "ok" : "register";
}
