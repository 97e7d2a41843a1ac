import type { Hono } from "hono";
import { html } from "hono/html";
import { formatPhone, type NumberChange } from "../../accounts/index.ts";
import { account } from "../../ledger/index.ts";
import { actionsOf, notConfigured } from "../actions/common.ts";
import { allow, authenticate } from "../auth.ts";
import { availableText, type Fragment, notice, page, table, time } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";
import { personPath } from "../people/view.ts";

/**
 * WhatsApp customers who changed number (Meta's signed `user_changed_number` notice, recorded by
 * system/number-change.ts), newest first: the old number's account and its balance, the new
 * number's account once the customer wrote from it, and the link that moves the balance
 * (pages/balance-move.ts). The chats key on the phone, so the new number is another account.
 */

const TITLE = "Number changes";
const LIST_MAX = 100;

async function row(parts: DashboardParts, c: NumberChange): Promise<Array<string | Fragment>> {
  const { people, ledger } = parts.deps;
  const [from, to] = [await people.userByPhone(c.oldPhone), await people.userByPhone(c.newPhone)];
  const link = (id: number | null) =>
    id === null ? "no account" : html`<a href="${personPath(id)}">${id}</a>`;
  const balance = from === null ? null : await ledger.balance(account.customer(from));
  let action: string | Fragment = "nothing to move";
  if (from !== null && balance && balance.availablePaisa + balance.heldPaisa > 0) {
    action =
      to === null
        ? "waiting: the customer has not written from the new number yet (no account there)"
        : to === from
          ? "the new number is on the same account"
          : html`<a href="${personPath(from, `/move?to=${to}`)}">Move the balance…</a>`;
  }
  return [
    time(c.at),
    formatPhone(c.oldPhone),
    html`${link(from)}${balance ? ` (${availableText(balance)})` : ""}`,
    formatPhone(c.newPhone),
    link(to),
    action,
  ];
}

export function numberChangeRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/number-changes", authenticate(parts), allow("admin"), async (c) => {
    const viewer = c.get("viewer");
    const changes = actionsOf(parts)?.numberChanges;
    if (!changes) return notConfigured(c, viewer, TITLE);
    const rows = [];
    for (const change of await changes.list(LIST_MAX)) rows.push(await row(parts, change));
    const intro = notice(
      "Meta signs these notices: each proves the customer moved from the old number to the new one. Their balance stays in the old number's account until it is moved here (the whole spendable balance, once; refused while money is held for an order).",
    );
    const head = ["When", "Old number", "Old account", "New number", "New account", ""];
    return c.html(page(TITLE, html`${intro}${table(head, rows)}`, viewer));
  });
}
