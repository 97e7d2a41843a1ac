import type { HttpBindings } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  type Catalog,
  OPERATOR_TYPE,
  type Operator,
  prefixesFor,
  type Region,
  validateAccountId,
  validateMobileNumber,
  validateMonth,
} from "../../src/catalog/index.ts";
import { toDecimalString } from "../../src/money.ts";
import { CIRCLES, indiaPlansFor } from "./data.ts";
import { type Account, billPaid, type Engine } from "./engine.ts";
import { firstMessage, intField, referenceField, ruleMessage, textField } from "./fields.ts";
import { type ErrorShape, readBody, sendError, sleep } from "./http.ts";
import {
  dthListingWire,
  electricityBill,
  indiaDthBill,
  packagesFor,
  packagesWire,
  UNKNOWN_CUSTOMER_SUFFIX,
  waterBill,
} from "./lookups.ts";
import { exactDigits, officesFor, resolveOperator, validateExecute } from "./validate.ts";

/**
 * The provider API of the spec and the notes, served at the app's root ("/np/recharge/execute",
 * "/in/circle", "/wallet/balance", ...). Every endpoint goes through the same gate: token (401),
 * per-token rate limit (429 with Retry-After), then the token's injected faults.
 */

export interface RouteDeps {
  accounts: Map<string, Account>;
  engine: Engine;
  catalog: Catalog;
  now: () => number;
  random: () => number;
  rateLimitPerSecond: number;
  rateLimitClock: () => number;
  dropMode: "reset" | "hang";
  /** How long a "hang" drop waits before answering 504 when the client does not give up first. */
  hangMs: number;
  /** Pending hangs, released by close(). */
  hangs: Set<() => void>;
  logger: { warn: (obj: object, msg?: string) => void };
}

type Handler = (c: Context, account: Account) => Response | Promise<Response>;

const NO_SUCH_CUSTOMER = "Customer not found";
const OPERATOR_TYPE_LABELS: Record<number, string> = {
  [OPERATOR_TYPE.mobile]: "Mobile",
  [OPERATOR_TYPE.dth]: "DTH",
  [OPERATOR_TYPE.datapack]: "Data Pack",
  [OPERATOR_TYPE.landline]: "Landline",
  [OPERATOR_TYPE.internet]: "Internet",
  [OPERATOR_TYPE.water]: "Khanepani (Water)",
  [OPERATOR_TYPE.electricity]: "Electricity",
};
const FIVE_XX = [500, 502, 503, 504] as const;

const listingBody = z.looseObject({
  connection_no: textField("connection_no"),
  reference_no: referenceField("reference_no"),
});
const waterCheckBody = z.looseObject({
  connection_no: textField("connection_no"),
  reference_no: referenceField("reference_no"),
  month_id: z.union([z.string(), z.number()], { error: "month_id is required" }),
  office_code: textField("office_code"),
});
const electricityCheckBody = z.looseObject({
  connection_no: textField("connection_no"),
  reference_no: referenceField("reference_no"),
  phone: textField("phone"),
  sc_no: textField("sc_no"),
  office_code: textField("office_code"),
});
const officeBody = z.looseObject({ operator_id: intField("operator_id") });
const plansBody = z.looseObject({
  operator_id: intField("operator_id"),
  circle_id: intField("circle_id"),
  connection_no: textField("connection_no").optional(),
});

export function createProviderRoutes(deps: RouteDeps): Hono {
  const app = new Hono();
  let sessionSeq = 40_000 + Math.floor(deps.random() * 10_000);

  /** Auth, rate limit and faults in front of a handler; errors in the endpoint's shape. */
  function gate(shape: ErrorShape, statusValue: false | "failed", fn: Handler) {
    return async (c: Context) => {
      const token = c.req.header("x-auth-token");
      const account = token ? deps.accounts.get(token) : undefined;
      if (!account) {
        return sendError(
          c,
          shape,
          401,
          "Unauthenticated: missing or invalid x-auth-token",
          statusValue,
        );
      }
      if (deps.rateLimitPerSecond > 0) {
        const second = Math.floor(deps.rateLimitClock() / 1000);
        const w = account.window;
        if (w.second !== second) {
          w.second = second;
          w.count = 0;
        }
        w.count++;
        if (w.count > deps.rateLimitPerSecond) {
          c.header("Retry-After", "1");
          return sendError(c, shape, 429, "Too many requests; retry later", statusValue);
        }
      }
      const f = account.faults;
      if (f.latencyMs > 0) await sleep(f.latencyMs);
      if (f.rate429 > 0 && deps.random() < f.rate429) {
        c.header("Retry-After", "1");
        return sendError(c, shape, 429, "Too many requests; retry later", statusValue);
      }
      if (f.errorRate5xx > 0 && deps.random() < f.errorRate5xx) {
        const code = FIVE_XX[Math.floor(deps.random() * FIVE_XX.length)] ?? 503;
        return sendError(c, shape, code, "Service temporarily unavailable", statusValue);
      }
      return fn(c, account);
    };
  }

  /** Commit then drop: the execute is applied; the client gets a reset connection or no answer. */
  async function drop(c: Context): Promise<Response> {
    const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
    if (deps.dropMode === "reset" && incoming?.socket) {
      incoming.socket.destroy();
      return new Response(null, { status: 204 });
    }
    await new Promise<void>((resolve) => {
      const release = () => {
        clearTimeout(timer);
        deps.hangs.delete(release);
        resolve();
      };
      const timer = setTimeout(release, deps.hangMs);
      deps.hangs.add(release);
      c.req.raw.signal.addEventListener("abort", release, { once: true });
    });
    return sendError(c, "B", 504, "Gateway timeout", "failed");
  }

  function region(c: Context): Region {
    return c.req.path.includes("/in/") ? "in" : "np";
  }

  const execute: Handler = async (c, account) => {
    const body = await readBody(c);
    if (!body.ok) return sendError(c, "B", body.httpStatus, body.message, "failed");
    const v = validateExecute(
      {
        catalog: deps.catalog,
        region: region(c),
        listing: (ref) => account.listings.get(ref),
      },
      body.body,
    );
    if (!v.ok) return sendError(c, "B", 400, v.message, "failed");
    const r = deps.engine.execute(account, v.order);
    if (!r.ok) return sendError(c, "B", 400, r.message, "failed");
    if (account.faults.commitThenDrop > 0 && deps.random() < account.faults.commitThenDrop) {
      deps.logger.warn(
        { ref: v.order.reference.text },
        "sandbox fault: execute applied, response dropped",
      );
      return drop(c);
    }
    if (account.faults.commitThen5xx > 0 && deps.random() < account.faults.commitThen5xx) {
      deps.logger.warn(
        { ref: v.order.reference.text },
        "sandbox fault: execute applied, answered 5xx",
      );
      const code = FIVE_XX[Math.floor(deps.random() * FIVE_XX.length)] ?? 503;
      return sendError(c, "B", code, "Service temporarily unavailable", "failed");
    }
    return c.json({
      error: false,
      message:
        r.tx.status === "success" ? "Recharge successful" : "Recharge request accepted and queued",
      data: deps.engine.executeData(r.tx),
    });
  };
  app.post("/np/recharge/execute", gate("B", "failed", execute));
  app.post("/in/recharge/execute", gate("B", "failed", execute));

  app.post(
    "/np/recharge/package",
    gate("A", false, async (c, account) => {
      const body = await readBody(c);
      if (!body.ok) return sendError(c, "A", body.httpStatus, body.message);
      const resolved = resolveOperator(deps.catalog, body.body);
      if (!resolved.ok) return sendError(c, "A", 400, resolved.message);
      const op = resolved.operator;
      if (op.category !== "datapack" && op.category !== "dth" && op.category !== "internet") {
        return sendError(c, "A", 400, `${op.name} has no package listing`);
      }
      const b = listingBody.safeParse(body.body);
      if (!b.success) return sendError(c, "A", 400, firstMessage(b.error));
      let connectionNo = b.data.connection_no;
      if (op.category === "datapack") {
        const digits = exactDigits(connectionNo, 10);
        if (digits) return sendError(c, "A", 400, digits);
        const n = validateMobileNumber(connectionNo, prefixesFor(op) ?? []);
        if (!n.ok) return sendError(c, "A", 400, ruleMessage("connection_no", n.error));
        connectionNo = n.value;
      } else {
        const id = validateAccountId(connectionNo);
        if (!id.ok) return sendError(c, "A", 400, ruleMessage("connection_no", id.error));
        if (connectionNo.endsWith(UNKNOWN_CUSTOMER_SUFFIX)) {
          return sendError(
            c,
            "A",
            400,
            op.category === "internet" ? "Username not found" : NO_SUCH_CUSTOMER,
          );
        }
      }
      const packages = packagesFor(op);
      const refused = deps.engine.recordListing(account, b.data.reference_no.text, {
        category: op.category,
        operatorId: op.id,
        connectionNo,
        packages,
      });
      if (refused) return sendError(c, "A", 400, refused);
      if (op.category === "dth") {
        return c.json({
          error: false,
          message: "Packages fetched",
          data: dthListingWire(op, connectionNo, b.data.reference_no.raw, ++sessionSeq, packages),
        });
      }
      return c.json({
        error: false,
        message: "Packages fetched",
        data: packagesWire(op, packages),
      });
    }),
  );

  app.post(
    "/np/recharge/check",
    gate("A", false, async (c, account) => {
      const body = await readBody(c);
      if (!body.ok) return sendError(c, "A", body.httpStatus, body.message);
      const resolved = resolveOperator(deps.catalog, body.body);
      if (!resolved.ok) return sendError(c, "A", 400, resolved.message);
      const op = resolved.operator;
      const offices = officesFor(op);
      if (!offices) return sendError(c, "A", 400, `${op.name} has no bill check`);
      /** Why a bill check for this customer and office is refused, or null. */
      const refusal = (connectionNo: string, officeCode: string): string | null => {
        const id = validateAccountId(connectionNo);
        if (!id.ok) return ruleMessage("connection_no", id.error);
        if (!offices.some((o) => o.value === officeCode)) {
          return `Unknown office_code ${officeCode} for ${op.name}`;
        }
        return connectionNo.endsWith(UNKNOWN_CUSTOMER_SUFFIX) ? NO_SUCH_CUSTOMER : null;
      };
      if (op.category === "water") {
        const b = waterCheckBody.safeParse(body.body);
        if (!b.success) return sendError(c, "A", 400, firstMessage(b.error));
        const refused = refusal(b.data.connection_no, b.data.office_code);
        if (refused) return sendError(c, "A", 400, refused);
        const month = validateMonth(b.data.month_id);
        if (!month.ok) return sendError(c, "A", 400, ruleMessage("month_id", month.error));
        return c.json({
          error: false,
          message: "Bill fetched",
          data: waterBill(b.data.connection_no, b.data.reference_no.raw, month.value, {
            paid: billPaid(account, op.id, b.data.connection_no, {
              office_code: b.data.office_code,
            }),
          }),
        });
      }
      const b = electricityCheckBody.safeParse(body.body);
      if (!b.success) return sendError(c, "A", 400, firstMessage(b.error));
      const refused = refusal(b.data.connection_no, b.data.office_code);
      if (refused) return sendError(c, "A", 400, refused);
      const sc = validateAccountId(b.data.sc_no);
      if (!sc.ok) return sendError(c, "A", 400, ruleMessage("sc_no", sc.error));
      if (!/^\d{7,10}$/.test(b.data.phone)) {
        return sendError(c, "A", 400, "phone must be a phone number of 7 to 10 digits");
      }
      return c.json({
        error: false,
        message: "Bill fetched",
        data: electricityBill(
          b.data.connection_no,
          sc.value,
          b.data.office_code,
          b.data.reference_no.raw,
          deps.now(),
          {
            paid: billPaid(account, op.id, b.data.connection_no, {
              office_code: b.data.office_code,
              sc_no: sc.value,
            }),
          },
        ),
      });
    }),
  );

  app.post(
    "/utility/office-codes",
    gate("A", false, async (c) => {
      const body = await readBody(c);
      if (!body.ok) return sendError(c, "A", body.httpStatus, body.message);
      const b = officeBody.safeParse(body.body);
      if (!b.success) return sendError(c, "A", 400, firstMessage(b.error));
      const op = deps.catalog.operator(b.data.operator_id);
      const offices = op ? officesFor(op) : null;
      if (!op || !offices) {
        return sendError(c, "A", 400, `No office codes for operator_id ${b.data.operator_id}`);
      }
      return c.json({ error: false, message: "Office codes fetched", data: offices });
    }),
  );

  app.get(
    "/in/circle",
    gate("A", false, (c) =>
      c.json({
        error: false,
        message: "Circles fetched",
        data: CIRCLES.map((ci) => ({
          circle_id: ci.id,
          circle_name: ci.name,
          value: ci.id,
          label: ci.name,
        })),
      }),
    ),
  );

  app.post(
    "/in/operator-plans",
    gate("A", false, async (c) => {
      const body = await readBody(c);
      if (!body.ok) return sendError(c, "A", body.httpStatus, body.message);
      const b = plansBody.safeParse(body.body);
      if (!b.success) return sendError(c, "A", 400, firstMessage(b.error));
      const op = deps.catalog.operator(b.data.operator_id);
      if (op?.region !== "in") {
        return sendError(c, "A", 400, `Unknown India operator_id ${b.data.operator_id}`);
      }
      if (!CIRCLES.some((ci) => ci.id === String(b.data.circle_id))) {
        return sendError(c, "A", 400, `Unknown circle_id ${b.data.circle_id}`);
      }
      const conn = b.data.connection_no;
      if (conn !== undefined) {
        // The notes document the India DTH bill under this same path; a connection_no selects it.
        if (op.india !== "dth") return sendError(c, "A", 400, `${op.name} is not a DTH operator`);
        const id = validateAccountId(conn);
        if (!id.ok) return sendError(c, "A", 400, ruleMessage("connection_no", id.error));
        if (conn.endsWith(UNKNOWN_CUSTOMER_SUFFIX)) return sendError(c, "A", 400, NO_SUCH_CUSTOMER);
        return c.json({
          status: true,
          message: "Bill fetched",
          data: indiaDthBill(op, conn, deps.now()),
        });
      }
      return c.json({ status: true, message: "Plans fetched", data: indiaPlansFor(op) });
    }),
  );

  app.get(
    "/wallet/balance",
    gate("B", false, (c, account) =>
      c.json({
        error: false,
        message: "Wallet balance",
        data: { credits_available: toDecimalString(account.balancePaisa) },
      }),
    ),
  );

  for (const r of ["np", "in"] as const) {
    for (const [kind, by] of [
      ["service", "transaction"],
      ["order", "order"],
    ] as const) {
      app.post(
        `/${r}/${kind}/status`,
        gate("B", false, async (c, account) => {
          const body = await readBody(c);
          if (!body.ok) return sendError(c, "B", body.httpStatus, body.message);
          const field = by === "transaction" ? "transaction_id" : "order_id";
          const parsed = referenceField(field).safeParse(body.body[field]);
          if (!parsed.success) return sendError(c, "B", 400, firstMessage(parsed.error));
          const tx = deps.engine.find(account, r, by, parsed.data.text);
          if (!tx) return sendError(c, "B", 404, "Transaction not found");
          return c.json({
            error: false,
            message: "Transaction status",
            data: deps.engine.statusData(tx),
          });
        }),
      );
    }
  }

  const operatorList = (ops: Operator[], typeFilter: string | undefined) =>
    ops
      .filter((o) => typeFilter === undefined || String(o.operatorTypeId) === typeFilter)
      .map((o) => ({ value: o.id, label: o.name, operator_type_id: o.operatorTypeId }));

  for (const r of ["np", "in"] as const) {
    // Read on every request: an operator withdrawn at runtime (admin API) is no longer listed.
    const ops = () =>
      deps.catalog.operators.filter((o) => o.region === r && deps.catalog.operator(o.id));
    const listOperators: Handler = async (c) => {
      let filter = c.req.query("operator_type_id");
      if (c.req.method === "POST") {
        const body = await readBody(c);
        if (!body.ok) return sendError(c, "A", body.httpStatus, body.message);
        const t = body.body.operator_type_id;
        if (typeof t === "string" || typeof t === "number") filter = String(t);
      }
      return c.json({
        error: false,
        message: "Operators fetched",
        data: operatorList(ops(), filter),
      });
    };
    const listTypes: Handler = (c) => {
      const types = [...new Set(ops().map((o) => o.operatorTypeId))].sort((a, b) => a - b);
      return c.json({
        error: false,
        message: "Operator types fetched",
        data: types.map((t) => ({ value: t, label: OPERATOR_TYPE_LABELS[t] ?? `Type ${t}` })),
      });
    };
    app.on(["GET", "POST"], `/${r}/operators`, gate("A", false, listOperators));
    app.on(["GET", "POST"], `/${r}/operator-types`, gate("A", false, listTypes));
  }

  return app;
}
