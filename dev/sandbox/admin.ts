import { type Context, Hono } from "hono";
import { z } from "zod";
import { faultsPatchSchema } from "./faults.ts";
import { readBody } from "./http.ts";
import type { SandboxControl } from "./types.ts";

/**
 * The sandbox admin API (the provider's "dashboard"), served under /_sandbox inside the sandbox app.
 * Authenticated by `x-admin-token` (or `x-auth-token`) equal to the admin token; the account acted
 * on is `?account=<token>`, the first configured account when absent.
 */

const webhookBody = z.object({
  url: z.url({ protocol: /^https?$/ }),
  secret: z.string().min(1).max(256),
});
const balanceBody = z.object({
  balance_paisa: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
const statusBody = z.object({ status: z.enum(["pending", "success", "failed"]) });

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
}

export function createAdminRoutes(control: SandboxControl, adminToken: string): Hono {
  const admin = new Hono();

  admin.use("*", async (c, next) => {
    const given = c.req.header("x-admin-token") ?? c.req.header("x-auth-token");
    if (given !== adminToken) {
      return c.json({ error: true, message: "Unauthenticated: admin token required" }, 401);
    }
    await next();
  });

  /** The account named by ?account=, or a 404 answer. */
  function account(c: Context): string | Response {
    const token = c.req.query("account") ?? control.tokens()[0];
    if (token === undefined || !control.tokens().includes(token)) {
      return c.json({ error: true, message: "Unknown account" }, 404);
    }
    return token;
  }

  async function json<T>(c: Context, schema: z.ZodType<T>): Promise<T | Response> {
    const body = await readBody(c);
    if (!body.ok) return c.json({ error: true, message: body.message }, body.httpStatus);
    const parsed = schema.safeParse(body.body);
    if (!parsed.success) return c.json({ error: true, message: issues(parsed.error) }, 400);
    return parsed.data;
  }

  admin.get("/accounts", (c) =>
    c.json({ error: false, data: control.tokens().map(control.summary) }),
  );

  admin.get("/ledger", (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    return c.json({
      error: false,
      data: { balance_paisa: control.balance(t), entries: control.ledger(t) },
    });
  });

  admin.put("/balance", async (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    const b = await json(c, balanceBody);
    if (b instanceof Response) return b;
    control.setBalance(t, b.balance_paisa);
    return c.json({ error: false, data: { balance_paisa: control.balance(t) } });
  });

  admin.get("/transactions", (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    return c.json({ error: false, data: control.transactions(t) });
  });

  admin.post("/transactions/:id/status", async (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    const b = await json(c, statusBody);
    if (b instanceof Response) return b;
    const r = control.forceStatus(t, c.req.param("id"), b.status);
    if (!r.ok)
      return c.json(
        { error: true, message: r.message },
        r.message.includes("not found") ? 404 : 409,
      );
    return c.json({ error: false, data: r.transaction });
  });

  admin.get("/deliveries", (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    return c.json({ error: false, data: control.deliveries(t) });
  });

  admin.get("/webhook", (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    return c.json({ error: false, data: control.summary(t).webhook });
  });

  admin.put("/webhook", async (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    const b = await json(c, webhookBody);
    if (b instanceof Response) return b;
    control.setWebhook(t, b);
    return c.json({ error: false, data: control.summary(t).webhook });
  });

  admin.post("/webhook/connect", async (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    if (!control.summary(t).webhook) {
      return c.json({ error: true, message: "Set a webhook URL and secret first" }, 409);
    }
    const connected = await control.connectWebhook(t);
    const last = control
      .deliveries(t)
      .filter((d) => d.kind === "connect")
      .at(-1);
    return c.json({ error: false, data: { connected, attempt: last?.attempts[0] ?? null } });
  });

  admin.get("/faults", (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    return c.json({ error: false, data: control.faults(t) });
  });

  admin.put("/faults", async (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    const b = await json(c, faultsPatchSchema);
    if (b instanceof Response) return b;
    control.setFaults(t, b);
    return c.json({ error: false, data: control.faults(t) });
  });

  admin.delete("/faults", (c) => {
    const t = account(c);
    if (t instanceof Response) return t;
    control.clearFaults(t);
    return c.json({ error: false, data: control.faults(t) });
  });

  // Operators the provider stops (and starts again) offering: the lookups and every endpoint follow.
  admin.get("/operators/withdrawn", (c) =>
    c.json({ error: false, data: control.withdrawnOperators() }),
  );
  for (const action of ["withdraw", "restore"] as const) {
    admin.post(`/operators/:id/${action}`, (c) => {
      const raw = c.req.param("id");
      if (!/^\d{1,9}$/.test(raw)) {
        return c.json({ error: true, message: "operator id must be a number" }, 400);
      }
      try {
        if (action === "withdraw") control.withdrawOperator(Number(raw));
        else control.restoreOperator(Number(raw));
      } catch {
        return c.json({ error: true, message: `No operator ${raw}` }, 404);
      }
      return c.json({ error: false, data: control.withdrawnOperators() });
    });
  }

  admin.post("/settle", async (c) => {
    await control.settle();
    return c.json({ error: false, message: "All timers fired" });
  });

  return admin;
}
