/** Display formatting of money and times for chat messages (inside, money is integer paisa). */

export function formatRupees(paisa: number, region: "np" | "in" = "np"): string {
  const negative = paisa < 0;
  const abs = Math.abs(paisa);
  const rupees = Math.floor(abs / 100);
  const rest = abs % 100;
  const grouped = rupees.toLocaleString("en-IN");
  const text = rest === 0 ? grouped : `${grouped}.${String(rest).padStart(2, "0")}`;
  return `${negative ? "-" : ""}${region === "in" ? "₹" : "Rs "}${text}`;
}

export function formatTime(ms: number, timeZone = "Asia/Kathmandu"): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(ms));
}
