/**
 * Who may spend (ACCESS_MODE), as one pure rule. prepaid: anyone registered (a shared phone
 * contact); the balance then decides. staff: only the listed users, from the merchant's wallet.
 */
export type AccessVerdict = "ok" | "register" | "private";

export function accessVerdict(
  mode: "prepaid" | "staff",
  who: { registered: boolean; staff: boolean },
): AccessVerdict {
  if (mode === "staff") return who.staff ? "ok" : "private";
  return who.registered ? "ok" : "register";
}
