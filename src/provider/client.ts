import type { Dispatcher } from "undici";
import { billCheck, createEndpoints, invoke } from "./endpoints.ts";
import { createExecute } from "./execute.ts";
import type {
  BillCheck,
  ExecuteRequest,
  IndiaDthBillQuery,
  IndiaPlansQuery,
  PackageQuery,
  Region,
} from "./requests.ts";
import type {
  Bill,
  Circle,
  DthListing,
  ExecuteResult,
  IndiaDthBill,
  Option,
  Package,
  Plan,
  StatusResult,
  WalletBalance,
} from "./schemas.ts";
import { NEPAL_UTC_OFFSET_MINUTES } from "./timestamp.ts";
import { createTransport, type ProviderLogger } from "./transport.ts";

/**
 * The aggregator's client: options and defaults, and the public methods wired to their parts
 * (transport.ts: one exchange, errors, retries; endpoints.ts: every lookup as a table row;
 * execute.ts: the one call that is never retried).
 */

export { parseRetryAfter } from "./transport.ts";

interface ProviderPaths {
  indiaExecute?: string;
  operators?: string;
  operatorTypes?: string;
  indiaOperators?: string;
  indiaOperatorTypes?: string;
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

const DEFAULT_PATHS: Required<ProviderPaths> = {
  indiaExecute: "/in/recharge/execute",
  operators: "/np/operators",
  operatorTypes: "/np/operator-types",
  indiaOperators: "/in/operators",
  indiaOperatorTypes: "/in/operator-types",
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
  /** A bill check as a bill category asks it (its arguments' schema and body, see BillCheck). */
  checkBill<I extends PackageQuery>(check: BillCheck<I>, query: I): Promise<Bill>;
  statusByTransaction(region: Region, transactionId: string): Promise<StatusResult>;
  statusByReference(region: Region, referenceNo: string): Promise<StatusResult>;
  walletBalance(): Promise<WalletBalance>;
  /** Operator and operator-type lookups of a region (paths undocumented, settings). */
  operators(region?: Region): Promise<Option[]>;
  operatorTypes(region?: Region): Promise<Option[]>;
  indiaPlans(query: IndiaPlansQuery): Promise<Plan[]>;
  indiaDthBill(query: IndiaDthBillQuery): Promise<IndiaDthBill>;
  /** Destroys the client's own dispatcher (an injected one is left to its owner). */
  close(): Promise<void>;
}

export function createProviderClient(opts: ProviderClientOptions): ProviderClient {
  const transport = createTransport({
    baseUrl: opts.baseUrl,
    token: opts.token,
    lookupTimeoutMs: opts.lookupTimeoutMs ?? 10_000,
    maxRetries: Math.max(0, opts.maxRetries ?? 3),
    backoffBaseMs: opts.backoffBaseMs ?? 200,
    maxBackoffMs: opts.maxBackoffMs ?? 5_000,
    maxRetryAfterMs: opts.maxRetryAfterMs ?? 10_000,
    maxResponseBytes: opts.maxResponseBytes ?? 5 * 1024 * 1024,
    logger: opts.logger,
    dispatcher: opts.dispatcher,
    sleep: opts.sleep,
    random: opts.random,
  });
  const paths = { ...DEFAULT_PATHS, ...opts.paths };
  const api = createEndpoints(
    {
      paths,
      timestampUtcOffsetMinutes: opts.timestampUtcOffsetMinutes ?? NEPAL_UTC_OFFSET_MINUTES,
    },
    transport,
  );

  return {
    execute: createExecute({
      transport,
      timeoutMs: opts.executeTimeoutMs ?? 30_000,
      indiaPath: paths.indiaExecute,
      logger: opts.logger,
    }),
    listDataPackages: (query) => invoke(transport, api.listDataPackages, query),
    listInternetPackages: (query) => invoke(transport, api.listInternetPackages, query),
    listDthPackages: (query) => invoke(transport, api.listDthPackages, query),
    officeCodes: (operatorId) => invoke(transport, api.officeCodes, operatorId),
    circles: () => invoke(transport, api.circles),
    checkBill: (check, query) => invoke(transport, billCheck(check.input, check.body), query),
    statusByTransaction: (region, transactionId) =>
      invoke(transport, api.statusByTransaction, { region, id: transactionId }),
    statusByReference: (region, referenceNo) =>
      invoke(transport, api.statusByReference, { region, id: referenceNo }),
    walletBalance: () => invoke(transport, api.walletBalance),
    operators: (region = "np") =>
      invoke(transport, region === "in" ? api.indiaOperators : api.operators),
    operatorTypes: (region = "np") =>
      invoke(transport, region === "in" ? api.indiaOperatorTypes : api.operatorTypes),
    indiaPlans: (query) => invoke(transport, api.indiaPlans, query),
    indiaDthBill: (query) => invoke(transport, api.indiaDthBill, query),
    close: () => transport.close(),
  };
}
