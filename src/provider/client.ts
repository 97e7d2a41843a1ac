import { setTimeout as delay } from "node:timers/promises";
import { Agent, type Dispatcher, request } from "undici";
import type { z } from "zod";
import {
  ProviderAuthError,
  ProviderError,
  ProviderInvalidRequestError,
  ProviderMalformedResponseError,
  ProviderNetworkError,
  ProviderRateLimitedError,
  ProviderRejectedError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from "./errors.ts";
import { parseJsonPreservingBigInts } from "./json.ts";
import {
  type ElectricityBillQuery,
  type ExecuteRequest,
  electricityBillQuerySchema,
  executeBody,
  executeRequestSchema,
  type IndiaDthBillQuery,
  type IndiaPlansQuery,
  idForJson,
  indiaDthBillQuerySchema,
  indiaPlansQuerySchema,
  type PackageQuery,
  packageQuerySchema,
  type Region,
  regionSchema,
  type WaterBillQuery,
  waterBillQuerySchema,
} from "./requests.ts";
import {
  type Bill,
  type Circle,
  type DthListing,
  type ExecuteResult,
  type IndiaDthBill,
  messageOf,
  type Option,
  type Package,
  type Plan,
  readEnvelope,
  type StatusResult,
  type WalletBalance,
  wireBill,
  wireCircleList,
  wireDthListing,
  wireExecuteData,
  wireIndiaDthBill,
  wireOptionList,
  wirePackageList,
  wirePlans,
  wireStatusData,
  wireWallet,
} from "./schemas.ts";
import { NEPAL_UTC_OFFSET_MINUTES } from "./timestamp.ts";

export interface ProviderLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ProviderPaths {
  indiaExecute?: string;
  operators?: string;
  operatorTypes?: string;
  indiaPlans?: string;
  indiaDthBill?: string;
}

export interface ProviderClientOptions {
  /** Base URL ending in /api/v1 (a trailing slash is tolerated). */
  baseUrl: string;
  token: string;
  /** Per-attempt timeout of every call but execute. Default 10 s. */
  lookupTimeoutMs?: number;
  /** Timeout of execute (its only attempt). Default 30 s. */
  executeTimeoutMs?: number;
  /** Retries after the first attempt, for non-execute calls. Default 3. */
  maxRetries?: number;
  /** Backoff base; attempt n waits a uniform random time in [0, min(cap, base * 2^n)). Default 200. */
  backoffBaseMs?: number;
  /** Cap of one backoff wait. Default 5 s. */
  maxBackoffMs?: number;
  /** A 429 whose Retry-After is longer than this is not retried but thrown at once. Default 10 s. */
  maxRetryAfterMs?: number;
  /** UTC offset of the provider's zone-less timestamps. Default Nepal Time, 345. */
  timestampUtcOffsetMinutes?: number;
  /** Responses larger than this are treated as malformed. Default 5 MiB. */
  maxResponseBytes?: number;
  /** Paths the spec leaves undocumented (see provider-notes). */
  paths?: ProviderPaths;
  logger?: ProviderLogger;
  /** A dispatcher owned by the caller (close() leaves it alone); default: a keep-alive Agent. */
  dispatcher?: Dispatcher;
  sleep?: (ms: number) => Promise<void>;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

export const DEFAULT_PATHS: Required<ProviderPaths> = {
  indiaExecute: "/in/recharge/execute",
  operators: "/np/operators",
  operatorTypes: "/np/operator-types",
  indiaPlans: "/in/operator-plans",
  indiaDthBill: "/in/operator-plans",
};

export interface ProviderClient {
  /**
   * Sends exactly one request, never retried; the outcome is a value. Throws only
   * ProviderInvalidRequestError, for arguments that fail validation (then nothing is sent).
   */
  execute(req: ExecuteRequest): Promise<ExecuteResult>;
  listDataPackages(query: PackageQuery): Promise<Package[]>;
  listInternetPackages(query: PackageQuery): Promise<Package[]>;
  listDthPackages(query: PackageQuery): Promise<DthListing>;
  officeCodes(operatorId: number | string): Promise<Option[]>;
  circles(): Promise<Circle[]>;
  checkWaterBill(query: WaterBillQuery): Promise<Bill>;
  checkElectricityBill(query: ElectricityBillQuery): Promise<Bill>;
  statusByTransaction(region: Region, transactionId: string): Promise<StatusResult>;
  statusByReference(region: Region, referenceNo: string): Promise<StatusResult>;
  walletBalance(): Promise<WalletBalance>;
  operators(): Promise<Option[]>;
  operatorTypes(): Promise<Option[]>;
  indiaPlans(query: IndiaPlansQuery): Promise<Plan[]>;
  indiaDthBill(query: IndiaDthBillQuery): Promise<IndiaDthBill>;
  /** Destroys the client's own dispatcher (an injected one is left to its owner). */
  close(): Promise<void>;
}

type Method = "GET" | "POST";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Thrown inside the transport when the body exceeds the cap; mapped to a malformed response. */
class BodyTooLarge extends Error {}

const EXECUTE_PATH = "/np/recharge/execute";
const MESSAGE_LIMIT = 300;

/** Retry-After as milliseconds: delta-seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // HTTP-dates start with the day name ("Wed, 21 Oct 2015 07:28:00 GMT", RFC 850, asctime)
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

export function createProviderClient(opts: ProviderClientOptions): ProviderClient {
  let base: URL;
  try {
    base = new URL(opts.baseUrl);
  } catch {
    throw new TypeError("provider baseUrl is not a URL");
  }
  const baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, "")}`;
  const token = opts.token;
  const lookupTimeoutMs = opts.lookupTimeoutMs ?? 10_000;
  const executeTimeoutMs = opts.executeTimeoutMs ?? 30_000;
  const maxRetries = Math.max(0, opts.maxRetries ?? 3);
  const backoffBaseMs = opts.backoffBaseMs ?? 200;
  const maxBackoffMs = opts.maxBackoffMs ?? 5_000;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 10_000;
  const maxResponseBytes = opts.maxResponseBytes ?? 5 * 1024 * 1024;
  const paths = { ...DEFAULT_PATHS, ...opts.paths };
  const logger = opts.logger;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  const random = opts.random ?? Math.random;
  const ownsDispatcher = opts.dispatcher === undefined;
  const dispatcher: Dispatcher =
    opts.dispatcher ??
    new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000, connections: 32 });
  const statusSchema = wireStatusData(opts.timestampUtcOffsetMinutes ?? NEPAL_UTC_OFFSET_MINUTES);

  /** The token must never reach a message or a log line, even if the provider echoes it. */
  const redact = (text: string): string =>
    token.length > 0 ? text.split(token).join("[redacted]") : text;
  const clip = (text: string): string =>
    text.length > MESSAGE_LIMIT ? `${text.slice(0, MESSAGE_LIMIT)}…` : text;
  const clean = (text: string): string => clip(redact(text));

  // -------------------------------------------------------------------------------------------
  // Transport: one HTTP exchange, body read completely within the timeout.

  async function send(
    method: Method,
    path: string,
    body: unknown,
    timeoutMs: number,
  ): Promise<RawResponse> {
    const endpoint = `${method} ${path}`;
    const headers: Record<string, string> = { "x-auth-token": token, accept: "application/json" };
    if (method === "POST") headers["content-type"] = "application/json";
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const started = Date.now();
    try {
      const res = await request(`${baseUrl}${path}`, {
        method,
        headers,
        body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
        dispatcher,
        signal: controller.signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += buf.length;
        if (size > maxResponseBytes) {
          res.body.destroy();
          throw new BodyTooLarge();
        }
        chunks.push(buf);
      }
      const text = Buffer.concat(chunks).toString("utf8");
      logger?.debug(
        { endpoint, httpStatus: res.statusCode, durationMs: Date.now() - started },
        "provider response",
      );
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        throw new ProviderMalformedResponseError({
          endpoint,
          detail: `body larger than ${maxResponseBytes} bytes`,
        });
      }
      if (timedOut) throw new ProviderTimeoutError({ endpoint, timeoutMs });
      throw new ProviderNetworkError({ endpoint, detail: clean(networkDetail(err)) });
    } finally {
      clearTimeout(timer);
    }
  }

  /** JSON of a body, or a reason why it is not JSON. */
  function parseBody(text: string): { ok: true; json: unknown } | { ok: false; detail: string } {
    const trimmed = text.replace(/^\uFEFF/, "").trim();
    if (trimmed === "") return { ok: false, detail: "empty body" };
    try {
      return { ok: true, json: parseJsonPreservingBigInts(trimmed) };
    } catch {
      return {
        ok: false,
        detail: trimmed.startsWith("<") ? "HTML instead of JSON" : "body is not JSON",
      };
    }
  }

  function providerMessageOf(text: string): string | undefined {
    const parsed = parseBody(text);
    const message = parsed.ok ? messageOf(parsed.json) : null;
    return message === null ? undefined : clean(message);
  }

  /** The error a non-2xx response stands for. */
  function errorForStatus(endpoint: string, raw: RawResponse): ProviderError {
    const init = { endpoint, httpStatus: raw.status, providerMessage: providerMessageOf(raw.text) };
    if (raw.status === 401) return new ProviderAuthError(init);
    if (raw.status === 429) {
      return new ProviderRateLimitedError({
        ...init,
        retryAfterMs: parseRetryAfter(raw.headers["retry-after"]),
      });
    }
    if (raw.status >= 400 && raw.status < 500) return new ProviderRejectedError(init);
    if (raw.status >= 500 && raw.status < 600) return new ProviderUnavailableError(init);
    return new ProviderMalformedResponseError({ ...init, detail: "unexpected HTTP status" });
  }

  function zodDetail(error: z.ZodError): string {
    return clean(
      flattenIssues(error.issues, [])
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; "),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Non-execute calls: typed errors, bounded retries.

  async function attempt<S extends z.ZodType>(
    method: Method,
    path: string,
    body: unknown,
    schema: S,
  ): Promise<z.output<S>> {
    const endpoint = `${method} ${path}`;
    const raw = await send(method, path, body, lookupTimeoutMs);
    if (raw.status < 200 || raw.status >= 300) throw errorForStatus(endpoint, raw);
    const parsed = parseBody(raw.text);
    if (!parsed.ok) {
      throw new ProviderMalformedResponseError({
        endpoint,
        httpStatus: raw.status,
        detail: parsed.detail,
      });
    }
    const envelope = readEnvelope(parsed.json);
    if (envelope.outcome === "error") {
      throw new ProviderRejectedError({
        endpoint,
        httpStatus: raw.status,
        providerMessage: clean(envelope.message) || undefined,
      });
    }
    if (envelope.outcome === "unrecognised") {
      throw new ProviderMalformedResponseError({
        endpoint,
        httpStatus: raw.status,
        detail: "neither a success nor an error envelope",
      });
    }
    const data = schema.safeParse(envelope.data);
    if (!data.success) {
      throw new ProviderMalformedResponseError({
        endpoint,
        httpStatus: raw.status,
        detail: zodDetail(data.error),
      });
    }
    return data.data;
  }

  /** How long to wait before retry number `n` (0-based) after `error`; null: do not retry. */
  function retryDelay(error: ProviderError, n: number): number | null {
    if (!error.retryable || n >= maxRetries) return null;
    if (error instanceof ProviderRateLimitedError && error.retryAfterMs !== null) {
      return error.retryAfterMs <= maxRetryAfterMs ? error.retryAfterMs : null;
    }
    return Math.floor(random() * Math.min(maxBackoffMs, backoffBaseMs * 2 ** n));
  }

  async function call<S extends z.ZodType>(
    method: Method,
    path: string,
    body: unknown,
    schema: S,
  ): Promise<z.output<S>> {
    for (let n = 0; ; n++) {
      try {
        return await attempt(method, path, body, schema);
      } catch (err) {
        const error = asProviderError(err, `${method} ${path}`);
        const wait = retryDelay(error, n);
        if (wait === null) {
          logger?.warn(
            {
              endpoint: error.endpoint,
              kind: error.kind,
              httpStatus: error.httpStatus,
              attempts: n + 1,
            },
            "provider call failed",
          );
          throw error;
        }
        logger?.warn(
          {
            endpoint: error.endpoint,
            kind: error.kind,
            httpStatus: error.httpStatus,
            attempt: n + 1,
            retryInMs: wait,
          },
          "provider call failed; retrying",
        );
        await sleep(wait);
      }
    }
  }

  function asProviderError(err: unknown, endpoint: string): ProviderError {
    if (err instanceof ProviderError) return err;
    // Not expected: every path above throws typed errors. Keep the promise of "never raw".
    const detail = err instanceof Error ? err.message : String(err);
    return new ProviderMalformedResponseError({ endpoint, detail: clean(detail) });
  }

  function validate<S extends z.ZodType>(endpoint: string, schema: S, value: unknown): z.output<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new ProviderInvalidRequestError({ endpoint, detail: zodDetail(parsed.error) });
    }
    return parsed.data;
  }

  // -------------------------------------------------------------------------------------------
  // Execute: one request, outcome as a value.

  async function execute(input: ExecuteRequest): Promise<ExecuteResult> {
    const isIndia = (input as { category?: unknown }).category === "india";
    const path = isIndia ? paths.indiaExecute : EXECUTE_PATH;
    const endpoint = `POST ${path}`;
    const req = validate(endpoint, executeRequestSchema, input);
    const referenceNo = req.referenceNo;
    const unknown = (
      reason: "timeout" | "network" | "server_error" | "malformed",
      detail: string,
    ): ExecuteResult => {
      logger?.warn(
        { endpoint, referenceNo, category: req.category, reason, detail },
        "execute outcome unknown; reconcile by status query",
      );
      return { kind: "unknown", referenceNo, reason, detail };
    };

    let raw: RawResponse;
    try {
      raw = await send("POST", path, executeBody(req), executeTimeoutMs);
    } catch (err) {
      if (err instanceof ProviderTimeoutError) return unknown("timeout", err.message);
      if (err instanceof ProviderNetworkError) return unknown("network", err.message);
      return unknown("malformed", asProviderError(err, endpoint).message);
    }

    if (raw.status >= 400 && raw.status < 500) {
      const message = providerMessageOf(raw.text) ?? `HTTP ${raw.status}`;
      logger?.warn(
        { endpoint, referenceNo, category: req.category, httpStatus: raw.status },
        "execute rejected",
      );
      return {
        kind: "rejected",
        referenceNo,
        httpStatus: raw.status,
        message,
        rateLimited: raw.status === 429,
      };
    }
    if (raw.status >= 500 && raw.status < 600) {
      return unknown("server_error", errorForStatus(endpoint, raw).message);
    }
    if (raw.status < 200 || raw.status >= 300) {
      return unknown("malformed", `${endpoint}: unexpected HTTP status ${raw.status}`);
    }

    const parsed = parseBody(raw.text);
    if (!parsed.ok) return unknown("malformed", `${endpoint}: ${parsed.detail}`);
    const envelope = readEnvelope(parsed.json);
    if (envelope.outcome === "error") {
      logger?.warn(
        { endpoint, referenceNo, category: req.category, httpStatus: raw.status },
        "execute rejected",
      );
      return {
        kind: "rejected",
        referenceNo,
        httpStatus: raw.status,
        message: clean(envelope.message) || "provider reported an error",
        rateLimited: false,
      };
    }
    if (envelope.outcome === "unrecognised") {
      return unknown("malformed", `${endpoint}: neither a success nor an error envelope`);
    }
    const data = wireExecuteData.safeParse(envelope.data);
    if (!data.success) return unknown("malformed", `${endpoint}: ${zodDetail(data.error)}`);
    const d = data.data;
    if (d.referenceNo !== null && d.referenceNo !== referenceNo) {
      logger?.warn(
        { endpoint, referenceNo, echoedReferenceNo: d.referenceNo },
        "execute response echoes another reference",
      );
    }
    logger?.debug(
      { endpoint, referenceNo, transactionId: d.transactionId, status: d.status },
      "execute accepted",
    );
    return {
      kind: "accepted",
      referenceNo,
      transactionId: d.transactionId,
      status: d.status,
      message: clean(envelope.message),
      amountPaisa: d.amountPaisa,
      serviceChargePaisa: d.serviceChargePaisa,
      instantDiscountPaisa: d.instantDiscountPaisa,
      debitAmountPaisa: d.debitAmountPaisa,
      creditAvailablePaisa: d.creditAvailablePaisa,
      ...(d.commissionPaisa === null ? {} : { commissionPaisa: d.commissionPaisa }),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Lookups

  const PACKAGE_PATH = "/np/recharge/package";
  const CHECK_PATH = "/np/recharge/check";

  function packageBody(q: PackageQuery) {
    return {
      operator_id: q.operatorId,
      operator_type_id: q.operatorTypeId,
      connection_no: q.connectionNo,
      reference_no: q.referenceNo,
    };
  }

  async function listPackages(query: PackageQuery): Promise<Package[]> {
    const q = validate(`POST ${PACKAGE_PATH}`, packageQuerySchema, query);
    return call("POST", PACKAGE_PATH, packageBody(q), wirePackageList);
  }

  async function status(
    region: Region,
    kind: "service" | "order",
    id: string,
  ): Promise<StatusResult> {
    const path = `/${region}/${kind}/status`;
    const endpoint = `POST ${path}`;
    validate(endpoint, regionSchema, region);
    if (typeof id !== "string" || id.trim() === "") {
      throw new ProviderInvalidRequestError({ endpoint, detail: "id must be a non-empty string" });
    }
    const value = idForJson(id.trim());
    const body = kind === "service" ? { transaction_id: value } : { order_id: value };
    return call("POST", path, body, statusSchema);
  }

  return {
    execute,
    listDataPackages: listPackages,
    listInternetPackages: listPackages,

    async listDthPackages(query) {
      const q = validate(`POST ${PACKAGE_PATH}`, packageQuerySchema, query);
      const d = await call("POST", PACKAGE_PATH, packageBody(q), wireDthListing);
      return {
        operatorId: d.operatorId ?? String(q.operatorId),
        connectionNo: d.connectionNo ?? q.connectionNo,
        referenceNo: d.referenceNo ?? q.referenceNo,
        customerInfo: d.customerInfo,
        sessionId: d.sessionId,
        packages: d.packages,
      };
    },

    async officeCodes(operatorId) {
      const path = "/utility/office-codes";
      const id = String(operatorId).trim();
      if (id === "") {
        throw new ProviderInvalidRequestError({
          endpoint: `POST ${path}`,
          detail: "operatorId is empty",
        });
      }
      return call("POST", path, { operator_id: id }, wireOptionList);
    },

    circles: () => call("GET", "/in/circle", undefined, wireCircleList),

    async checkWaterBill(query) {
      const q = validate(`POST ${CHECK_PATH}`, waterBillQuerySchema, query);
      const bill = await call(
        "POST",
        CHECK_PATH,
        {
          operator_id: q.operatorId,
          operator_type_id: q.operatorTypeId,
          connection_no: q.connectionNo,
          reference_no: q.referenceNo,
          month_id: String(q.monthId),
          office_code: q.officeCode,
        },
        wireBill,
      );
      return {
        ...bill,
        connectionNo: bill.connectionNo ?? q.connectionNo,
        referenceNo: bill.referenceNo ?? q.referenceNo,
      };
    },

    async checkElectricityBill(query) {
      const q = validate(`POST ${CHECK_PATH}`, electricityBillQuerySchema, query);
      const bill = await call(
        "POST",
        CHECK_PATH,
        {
          operator_id: q.operatorId,
          operator_type_id: q.operatorTypeId,
          connection_no: q.connectionNo,
          reference_no: q.referenceNo,
          phone: q.phone,
          sc_no: q.scNo,
          office_code: q.officeCode,
        },
        wireBill,
      );
      return {
        ...bill,
        connectionNo: bill.connectionNo ?? q.connectionNo,
        referenceNo: bill.referenceNo ?? q.referenceNo,
      };
    },

    statusByTransaction: (region, transactionId) => status(region, "service", transactionId),
    statusByReference: (region, referenceNo) => status(region, "order", referenceNo),
    walletBalance: () => call("GET", "/wallet/balance", undefined, wireWallet),
    operators: () => call("GET", paths.operators, undefined, wireOptionList),
    operatorTypes: () => call("GET", paths.operatorTypes, undefined, wireOptionList),

    async indiaPlans(query) {
      const q = validate(`POST ${paths.indiaPlans}`, indiaPlansQuerySchema, query);
      return call(
        "POST",
        paths.indiaPlans,
        { operator_id: q.operatorId, circle_id: Number(q.circleId) },
        wirePlans,
      );
    },

    async indiaDthBill(query) {
      const q = validate(`POST ${paths.indiaDthBill}`, indiaDthBillQuerySchema, query);
      return call(
        "POST",
        paths.indiaDthBill,
        { operator_id: q.operatorId, connection_no: q.connectionNo, circle_id: Number(q.circleId) },
        wireIndiaDthBill,
      );
    },

    async close() {
      if (ownsDispatcher) await dispatcher.destroy();
    },
  };
}

/** A short, secret-free description of a transport failure (error code and message). */
function networkDetail(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${code}: ${current.message}` : current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.length > 0 ? parts.join(" <- ") : String(err);
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/** Union failures name the first alternative's own issues, which say what was actually wrong. */
function flattenIssues(issues: readonly Issue[], prefix: PropertyKey[]): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    const first = issue.code === "invalid_union" ? issue.errors?.[0] : undefined;
    return first && first.length > 0 ? flattenIssues(first, path) : [{ ...issue, path }];
  });
}
