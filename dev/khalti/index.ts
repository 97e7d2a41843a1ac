import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { z } from "zod";

/**
 * A local stand-in of Khalti's ePayment (KPG-2), like the aggregator's sandbox: the two calls with
 * the documented fields and errors (`POST api/v2/epayment/initiate/`, `POST api/v2/epayment/lookup/`,
 * `Authorization: Key <secret>`, amounts in paisa, Rs 10 minimum), a hosted payment page (Pay,
 * Cancel, Leave pending) that redirects the browser to the merchant's return_url as Khalti does,
 * and faults on demand: lookups answering 5xx, a redirect that never comes, pending and completed
 * later, completed and refunded later. Mounted at /khalti in local mode; tests drive it directly.
 */

export type KhaltiStatus =
  | "Initiated"
  | "Pending"
  | "Completed"
  | "Expired"
  | "User canceled"
  | "Refunded"
  | "Partially Refunded";

export interface StandInPayment {
  pidx: string;
  amount: number;
  purchaseOrderId: string;
  purchaseOrderName: string;
  returnUrl: string;
  status: KhaltiStatus;
  transactionId: string | null;
  fee: number;
  refunded: boolean;
  createdAt: number;
  expiresAt: number;
  /** Pending-then-completed: when it completes. */
  completesAt?: number;
  /** Completed-then-refunded: when it is refunded. */
  refundsAt?: number;
  lookups: number;
  redirects: number;
  /** Fault (tests): what the lookup reports instead of the truth (see `misreport`). */
  misreport?: StandInMisreport;
}

/**
 * A lookup answer that disagrees with what was initiated (tests of the merchant's checks): another
 * `total_amount`, and fields Khalti's documented lookup does not carry (a currency, a
 * purchase_order_id) to show what a gateway that does carry them would say.
 */
export const standInMisreportSchema = z
  .object({
    totalAmount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    currency: z.string().min(1).max(8).optional(),
    purchaseOrderId: z.string().min(1).max(100).optional(),
    /** A status word Khalti's documentation does not list (how the merchant holds it). */
    status: z.string().min(1).max(64).optional(),
    /** Another transaction id than the payment's (Khalti does not document such a change). */
    transactionId: z.string().min(1).max(128).optional(),
  })
  .strict();
export type StandInMisreport = z.infer<typeof standInMisreportSchema>;

export const standInFaultsSchema = z
  .object({
    /** The next this many lookups answer 502. */
    lookup5xx: z.number().int().min(0).max(1000),
    /** Pay marks the payment paid but never redirects the browser. */
    noRedirect: z.boolean(),
    /** Pay leaves the payment Pending; it turns Completed this many ms later. */
    pendingThenCompletedMs: z.number().int().min(0).max(3_600_000).nullable(),
    /** A completed payment turns Refunded this many ms after completing. */
    refundAfterMs: z.number().int().min(0).max(86_400_000).nullable(),
  })
  .strict();
export type StandInFaults = z.infer<typeof standInFaultsSchema>;

export const NO_STANDIN_FAULTS: StandInFaults = {
  lookup5xx: 0,
  noRedirect: false,
  pendingThenCompletedMs: null,
  refundAfterMs: null,
};

export interface KhaltiStandInOptions {
  secretKey: string;
  /** Where the stand-in is reachable (the payment_url's origin and path), no trailing slash. */
  publicBase: string;
  /** How long a payment link lives (Khalti: about an hour). */
  expiresInSeconds?: number;
  /** Fee in basis points of the amount (the merchant's; recorded, not charged to the payer). */
  feeBasisPoints?: number;
  now?: () => number;
  /**
   * Called with each lookup's answer just before it is sent (tests: kill the merchant's process
   * between the lookup and whatever it does next).
   */
  onLookup?: (answer: { pidx: string; status: KhaltiStatus }) => void;
}

/** The stand-in's secret in local mode (never a real key). */
export const STANDIN_SECRET_KEY = "local_standin_secret_key_not_real";

const initiateSchema = z.object({
  return_url: z.url({ protocol: /^https?$/ }),
  website_url: z.url({ protocol: /^https?$/ }),
  amount: z.number().int().min(1000, "Amount should be greater than Rs. 10, that is 1000 paisa."),
  purchase_order_id: z.string().min(1).max(100),
  purchase_order_name: z.string().min(1).max(200),
  customer_info: z.unknown().optional(),
  amount_breakdown: z.unknown().optional(),
  product_details: z.unknown().optional(),
});

const PAGE_PIDX = /^[A-Za-z0-9]{22}$/;

export function createKhaltiStandIn(opts: KhaltiStandInOptions) {
  const now = opts.now ?? Date.now;
  const payments = new Map<string, StandInPayment>();
  let faults: StandInFaults = { ...NO_STANDIN_FAULTS };
  const expiresIn = opts.expiresInSeconds ?? 1800;
  const feeBp = opts.feeBasisPoints ?? 300;
  const app = new Hono();

  const newId = (n: number) =>
    randomBytes(n * 2)
      .toString("base64")
      .replace(/[^A-Za-z0-9]/g, "")
      .slice(0, n)
      .padEnd(n, "x");

  /** Time-driven changes: expiry, pending-then-completed, completed-then-refunded. */
  const settle = (p: StandInPayment) => {
    const t = now();
    if (p.status === "Pending" && p.completesAt !== undefined && t >= p.completesAt) complete(p);
    if ((p.status === "Initiated" || p.status === "Pending") && t >= p.expiresAt && !p.completesAt)
      p.status = "Expired";
    if (p.status === "Completed" && p.refundsAt !== undefined && t >= p.refundsAt) {
      p.status = "Refunded";
      p.refunded = true;
    }
  };

  const complete = (p: StandInPayment) => {
    p.status = "Completed";
    p.transactionId = newId(22);
    p.fee = Math.floor((p.amount * feeBp) / 10_000);
    if (faults.refundAfterMs !== null) p.refundsAt = now() + faults.refundAfterMs;
  };

  const authorized = (header: string | undefined) => header === `Key ${opts.secretKey}`;

  const api = new Hono();
  api.use(async (c, next) => {
    if (!authorized(c.req.header("authorization")))
      return c.json({ detail: "Invalid token.", status_code: 401 }, 401);
    await next();
  });
  const body = async (c: { req: { json(): Promise<unknown> } }) => c.req.json().catch(() => null);

  api.post("/epayment/initiate/", async (c) => {
    const parsed = initiateSchema.safeParse(await body(c));
    if (!parsed.success) {
      const fields: Record<string, string[]> = {};
      for (const i of parsed.error.issues) {
        const k = String(i.path[0] ?? "detail");
        fields[k] = [...(fields[k] ?? []), i.message];
      }
      return c.json({ ...fields, error_key: "validation_error" }, 400);
    }
    const b = parsed.data;
    const pidx = newId(22);
    const t = now();
    const p: StandInPayment = {
      pidx,
      amount: b.amount,
      purchaseOrderId: b.purchase_order_id,
      purchaseOrderName: b.purchase_order_name,
      returnUrl: b.return_url,
      status: "Initiated",
      transactionId: null,
      fee: 0,
      refunded: false,
      createdAt: t,
      expiresAt: t + expiresIn * 1000,
      lookups: 0,
      redirects: 0,
    };
    payments.set(pidx, p);
    return c.json({
      pidx,
      payment_url: `${opts.publicBase}/pay?pidx=${pidx}`,
      expires_at: new Date(p.expiresAt).toISOString(),
      expires_in: expiresIn,
    });
  });

  api.post("/epayment/lookup/", async (c) => {
    const b = z.object({ pidx: z.string().min(1).max(64) }).safeParse(await body(c));
    if (!b.success)
      return c.json({ pidx: ["This field is required."], error_key: "validation_error" }, 400);
    if (faults.lookup5xx > 0) {
      faults.lookup5xx -= 1;
      return c.text("Bad Gateway", 502);
    }
    const p = payments.get(b.data.pidx);
    if (!p) return c.json({ detail: "Not found.", error_key: "validation_error" }, 404);
    p.lookups += 1;
    settle(p);
    const m = p.misreport;
    const answer = {
      pidx: p.pidx,
      total_amount: m?.totalAmount ?? p.amount,
      status: m?.status ?? p.status,
      transaction_id: m?.transactionId ?? p.transactionId,
      fee: p.fee,
      refunded: p.refunded,
      ...(m?.currency !== undefined ? { currency: m.currency } : {}),
      ...(m?.purchaseOrderId !== undefined ? { purchase_order_id: m.purchaseOrderId } : {}),
    };
    opts.onLookup?.({ pidx: p.pidx, status: p.status });
    // Khalti answers the lookup of an expired or cancelled payment with 400 and the same fields.
    const bad = p.status === "Expired" || p.status === "User canceled";
    return c.json(answer, bad ? 400 : 200);
  });

  app.route("/api/v2", api);

  // --- The hosted payment page (what the payer sees) ---
  const find = (pidx: string | undefined) =>
    pidx && PAGE_PIDX.test(pidx) ? payments.get(pidx) : undefined;

  app.get("/pay", (c) => {
    const p = find(c.req.query("pidx"));
    if (!p)
      return c.html(shell("Payment not found", "<p>This payment link is not valid.</p>"), 404);
    settle(p);
    if (p.status !== "Initiated")
      return c.html(shell("Khalti", `<p id="state">This payment is ${p.status}.</p>`), 409);
    const rupees = (p.amount / 100).toFixed(2);
    return c.html(
      shell(
        "Khalti (local stand-in)",
        `<p>Pay <strong id="amount">Rs ${rupees}</strong> to the merchant for ${escapeHtml(p.purchaseOrderName)}.</p>
<p>Test wallet 9800000000, MPIN 1111, OTP 987654 (nothing is asked here: this is the local stand-in).</p>
<form method="post" action="pay/${p.pidx}/pay"><button id="pay" type="submit">Pay Rs ${rupees}</button></form>
<form method="post" action="pay/${p.pidx}/cancel"><button id="cancel" type="submit">Cancel</button></form>
<form method="post" action="pay/${p.pidx}/pending"><button id="pending" type="submit">Leave pending</button></form>`,
      ),
    );
  });

  const redirect = (p: StandInPayment) => {
    p.redirects += 1;
    return redirectUrl(p);
  };

  app.post("/pay/:pidx/:action", (c) => {
    const p = find(c.req.param("pidx"));
    if (!p)
      return c.html(shell("Payment not found", "<p>This payment link is not valid.</p>"), 404);
    settle(p);
    if (p.status !== "Initiated" && p.status !== "Pending")
      return c.html(shell("Khalti", `<p id="state">This payment is ${p.status}.</p>`), 409);
    const action = c.req.param("action");
    if (action === "pay") {
      if (faults.pendingThenCompletedMs !== null) {
        p.status = "Pending";
        p.completesAt = now() + faults.pendingThenCompletedMs;
      } else complete(p);
      if (faults.noRedirect)
        return c.html(shell("Khalti", '<p id="state">Paid. (Fault: no redirect is sent.)</p>'));
    } else if (action === "cancel") {
      p.status = "User canceled";
    } else if (action === "pending") {
      p.status = "Pending";
    } else {
      return c.json({ detail: "Not found." }, 404);
    }
    return c.redirect(redirect(p), 302);
  });

  return {
    app,
    payments: (): StandInPayment[] => [...payments.values()].map((p) => ({ ...p })),
    payment: (pidx: string) => {
      const p = payments.get(pidx);
      return p ? { ...p } : undefined;
    },
    setFaults(patch: Partial<StandInFaults>) {
      faults = standInFaultsSchema.parse({ ...faults, ...patch });
    },
    faults: () => ({ ...faults }),
    /** What the payer's browser would do: act on the page. Returns the redirect URL, if any. */
    act(pidx: string, action: "pay" | "cancel" | "pending"): string | undefined {
      const p = payments.get(pidx);
      if (!p) throw new Error(`no payment ${pidx}`);
      if (action === "pay") {
        if (faults.pendingThenCompletedMs !== null) {
          p.status = "Pending";
          p.completesAt = now() + faults.pendingThenCompletedMs;
        } else complete(p);
        if (faults.noRedirect) return undefined;
      } else p.status = action === "cancel" ? "User canceled" : "Pending";
      return redirect(p);
    },
    /** Fault: the lookups of this payment report `m` instead of the truth (tests only). */
    misreport(pidx: string, m: StandInMisreport) {
      const p = payments.get(pidx);
      if (!p) throw new Error(`no payment ${pidx}`);
      p.misreport = standInMisreportSchema.parse(m);
    },
    /**
     * Khalti's merchant refund: full, or partial (the lookup then says Partially Refunded), or
     * "flag": the lookup keeps saying Completed with `refunded: true` and no amount (tests).
     */
    refund(pidx: string, partial: boolean | "flag" = false) {
      const p = payments.get(pidx);
      if (p?.status !== "Completed") throw new Error(`payment ${pidx} is not completed`);
      if (partial !== "flag") p.status = partial ? "Partially Refunded" : "Refunded";
      p.refunded = true;
    },
  };
}

export type KhaltiStandIn = ReturnType<typeof createKhaltiStandIn>;

/** Khalti's redirect: the return_url with the payment's fields as query parameters. */
function redirectUrl(p: StandInPayment): string {
  const u = new URL(p.returnUrl);
  const q = u.searchParams;
  q.set("pidx", p.pidx);
  q.set("status", p.status);
  q.set("transaction_id", p.transactionId ?? "");
  q.set("tidx", p.transactionId ?? "");
  q.set("txnId", p.transactionId ?? "");
  q.set("amount", String(p.amount));
  q.set("total_amount", String(p.amount));
  q.set("mobile", "98XXXXX000");
  q.set("purchase_order_id", p.purchaseOrderId);
  q.set("purchase_order_name", p.purchaseOrderName);
  return u.toString();
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
