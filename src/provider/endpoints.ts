import { z } from "zod";
import {
  ProviderMalformedResponseError,
  ProviderNotFoundError,
  ProviderRejectedError,
  ProviderUnavailableError,
} from "./errors.ts";
import {
  idForJson,
  indiaDthBillQuerySchema,
  indiaPlansQuerySchema,
  packageBody,
  packageQuerySchema,
  regionSchema,
} from "./requests.ts";
import {
  type Bill,
  NOT_FOUND_MESSAGE,
  sameReference,
  wireBill,
  wireCircleList,
  wireDthListing,
  wireIndiaDthBill,
  wireOptionList,
  wirePackageList,
  wirePlans,
  wireStatusData,
  wireStatusError,
  wireWallet,
} from "./schemas.ts";
import type { Method, Refusal, Transport } from "./transport.ts";

/**
 * Every repeatable endpoint as data (in the manner of stripe-node's method specs): method, path,
 * the arguments' schema, how they map to the JSON body, the response schema, and what the result
 * takes from the arguments. `invoke` is the one caller; execute is apart (execute.ts).
 */

export interface EndpointSpec<I, W, O> {
  method: Method;
  /** Relative to the base URL; a function when it depends on the (validated) arguments. */
  path: string | ((input: I) => string);
  /** The arguments; nothing is sent when they fail it. */
  input?: z.ZodType<I>;
  body?: (input: I) => unknown;
  /** Reads the success envelope's `data`. */
  response: z.ZodType<W>;
  /** Fills the result from the arguments where the response leaves it out. */
  result?: (data: W, input: I) => O;
  /** How a refusal reads, when the endpoint's error body is not the generic one. */
  refusal?: Refusal;
}

/** Declares a spec with its types inferred; the result is the response's data unless `result` says. */
function endpoint<I = undefined, W = unknown, O = W>(spec: EndpointSpec<I, W, O>) {
  return spec;
}

export interface EndpointConfig {
  paths: {
    operators: string;
    operatorTypes: string;
    indiaOperators: string;
    indiaOperatorTypes: string;
    indiaPlans: string;
    indiaDthBill: string;
  };
  timestampUtcOffsetMinutes: number;
}

const PACKAGE_PATH = "/np/recharge/package";
const CHECK_PATH = "/np/recharge/check";

/** A bill check: one spec for every bill category, only the arguments and body differ. */
export function billCheck<I extends { connectionNo: string; referenceNo: string }>(
  input: z.ZodType<I>,
  body: (q: I) => unknown,
) {
  return endpoint({
    method: "POST",
    path: CHECK_PATH,
    input,
    body,
    response: wireBill,
    result: (bill, q): Bill => {
      // A bill naming another account or another check is someone else's: shown as ours, the
      // customer reads another holder's name and due and pays that amount into their own account.
      const other = otherBill(bill, q);
      if (other) {
        throw new ProviderMalformedResponseError({
          endpoint: `POST ${CHECK_PATH}`,
          httpStatus: 200,
          detail: other,
        });
      }
      return {
        ...bill,
        connectionNo: bill.connectionNo ?? q.connectionNo,
        referenceNo: bill.referenceNo ?? q.referenceNo,
      };
    },
  });
}

/**
 * Why a bill check's answer is not about the account and check asked, or null. Account ids are
 * compared by their letters and digits, without case or leading zeros: a customer id with letters
 * may come back in capitals, an SC-style "012.34.567" without its dots or zero, and refusing the
 * customer's own bill over its spelling would leave them at Retry for good. References are
 * compared as the execute answer's are (sameReference).
 */
function otherBill(
  bill: { connectionNo: string | null; referenceNo: string | null },
  q: { connectionNo: string; referenceNo: string },
): string | null {
  const account = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .replace(/^0+/, "");
  // An empty echo says nothing about the account.
  if (bill.connectionNo && account(bill.connectionNo) !== account(q.connectionNo)) {
    return `the bill is for account ${bill.connectionNo.slice(0, 40)}, not the one asked`;
  }
  if (bill.referenceNo !== null && !sameReference(bill.referenceNo, q.referenceNo)) {
    return `the bill echoes reference ${bill.referenceNo.slice(0, 40)}, not ours`;
  }
  return null;
}

/**
 * A status endpoint's refusal. Only its own error shape B is the provider refusing (and "no such
 * order" only then); a 4xx without it is a gateway's page, transient; a 2xx error body of another
 * shape is malformed. Neither lets a caller conclude that the provider has no such order.
 */
function statusRefusal(transport: Transport): Refusal {
  return (endpoint, raw, json) => {
    const body = wireStatusError.safeParse(json);
    if (!body.success) {
      if (raw.status >= 200 && raw.status < 300) {
        return new ProviderMalformedResponseError({
          endpoint,
          httpStatus: raw.status,
          detail: "error body not in the status endpoints' shape",
        });
      }
      return new ProviderUnavailableError({
        endpoint,
        httpStatus: raw.status,
        providerMessage: transport.providerMessageOf(raw.text),
      });
    }
    const message = body.data.message;
    const init = { endpoint, httpStatus: raw.status, providerMessage: transport.clean(message) };
    // Only a client error may say "no such order" (spec 7: 404, the resource does not exist):
    // a 5xx is an unknown outcome whatever its words (the transport reads it so; this holds if it
    // ever reaches here), and a 2xx error envelope is a refusal of the query, tried again.
    if (raw.status >= 500) return new ProviderUnavailableError(init);
    const clientError = raw.status >= 400 && raw.status < 500;
    return clientError && (raw.status === 404 || NOT_FOUND_MESSAGE.test(message))
      ? new ProviderNotFoundError(init)
      : new ProviderRejectedError(init);
  };
}

const statusQuery = z.object({
  region: regionSchema,
  id: z.string("id must be a non-empty string").trim().min(1, "id must be a non-empty string"),
});

export function createEndpoints(config: EndpointConfig, transport: Transport) {
  const { paths } = config;
  const statusData = wireStatusData(config.timestampUtcOffsetMinutes);
  const refusal = statusRefusal(transport);
  const status = (kind: "service" | "order", field: "transaction_id" | "order_id") =>
    endpoint({
      method: "POST",
      path: (q) => `/${q.region}/${kind}/status`,
      input: statusQuery,
      body: (q) => ({ [field]: idForJson(q.id) }),
      response: statusData,
      refusal,
    });
  const packages = endpoint({
    method: "POST",
    path: PACKAGE_PATH,
    input: packageQuerySchema,
    body: packageBody,
    response: wirePackageList,
  });

  return {
    listDataPackages: packages,
    listInternetPackages: packages,
    listDthPackages: endpoint({
      method: "POST",
      path: PACKAGE_PATH,
      input: packageQuerySchema,
      body: packageBody,
      response: wireDthListing,
      result: (d, q) => ({
        operatorId: d.operatorId ?? String(q.operatorId),
        connectionNo: d.connectionNo ?? q.connectionNo,
        referenceNo: d.referenceNo ?? q.referenceNo,
        customerInfo: d.customerInfo,
        sessionId: d.sessionId,
        packages: d.packages,
      }),
    }),
    officeCodes: endpoint({
      method: "POST",
      path: "/utility/office-codes",
      input: z
        .unknown()
        .transform((id) => String(id).trim())
        .pipe(z.string().min(1, "operatorId is empty")),
      body: (id) => ({ operator_id: id }),
      response: wireOptionList,
    }),
    circles: endpoint({ method: "GET", path: "/in/circle", response: wireCircleList }),
    statusByTransaction: status("service", "transaction_id"),
    statusByReference: status("order", "order_id"),
    walletBalance: endpoint({ method: "GET", path: "/wallet/balance", response: wireWallet }),
    operators: endpoint({ method: "GET", path: paths.operators, response: wireOptionList }),
    operatorTypes: endpoint({ method: "GET", path: paths.operatorTypes, response: wireOptionList }),
    indiaOperators: endpoint({
      method: "GET",
      path: paths.indiaOperators,
      response: wireOptionList,
    }),
    indiaOperatorTypes: endpoint({
      method: "GET",
      path: paths.indiaOperatorTypes,
      response: wireOptionList,
    }),
    indiaPlans: endpoint({
      method: "POST",
      path: paths.indiaPlans,
      input: indiaPlansQuerySchema,
      body: (q) => ({ operator_id: q.operatorId, circle_id: Number(q.circleId) }),
      response: wirePlans,
    }),
    indiaDthBill: endpoint({
      method: "POST",
      path: paths.indiaDthBill,
      input: indiaDthBillQuerySchema,
      body: (q) => ({
        operator_id: q.operatorId,
        connection_no: q.connectionNo,
        circle_id: Number(q.circleId),
      }),
      response: wireIndiaDthBill,
    }),
  };
}

/** The one caller of every spec: validate, map, send with retries, read, complete. */
export async function invoke<I, W, O>(
  transport: Transport,
  spec: EndpointSpec<I, W, O>,
  args?: unknown,
): Promise<O> {
  const label = (input: unknown) => {
    if (typeof spec.path === "string") return spec.path;
    try {
      return spec.path(input as I);
    } catch {
      return "(invalid arguments)";
    }
  };
  const input = spec.input
    ? transport.validate(`${spec.method} ${label(args)}`, spec.input, args)
    : (args as I);
  const data = await transport.call(
    spec.method,
    label(input),
    spec.body?.(input),
    spec.response,
    spec.refusal,
  );
  return spec.result ? spec.result(data, input) : (data as unknown as O);
}
