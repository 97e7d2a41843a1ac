import { ProviderNetworkError, ProviderTimeoutError } from "./errors.ts";
import { type ExecuteRequest, executeRequestSchema } from "./requests.ts";
import { type ExecuteResult, readEnvelope, sameReference, wireExecuteData } from "./schemas.ts";
import type { ProviderLogger, RawResponse, Transport } from "./transport.ts";

/**
 * Execute moves money, so it is apart from the repeatable calls: exactly one request, never
 * retried, and the outcome is a value. Anything that leaves open whether the provider executed it
 * (timeout, reset, 5xx, an unreadable body) is "unknown": the order is settled by a status query,
 * never by sending it again.
 */

const EXECUTE_PATH = "/np/recharge/execute";

export interface ExecuteOptions {
  transport: Transport;
  timeoutMs: number;
  /** Path of the India execute (region "in"; undocumented, see provider-notes). */
  indiaPath: string;
  logger: ProviderLogger | undefined;
}

/**
 * Whether a refusal leaves open that the aggregator executed the order: a 408 (a proxy's or
 * server's timeout: the request may have gone on) is unknown, and the reconciler's status query
 * decides. A 409 or words naming a duplicate are not: the execute is sent once and never again
 * (only on placed -> submitting), so the reference the aggregator already holds is another
 * recharge's (a counter set back by a restore), and ours was not executed: refused, its hold
 * returned, and the admins alerted (referenceCollision). Taken as unknown, the reconciler would
 * take that other recharge's outcome for ours (review s25-e, 1). A 429 is the aggregator's "too
 * many requests; retry later" (spec 7): not acted on.
 */
function unclearRefusal(httpStatus: number): boolean {
  return httpStatus === 408;
}

/**
 * A refusal naming a reference the aggregator already holds: a 409, or words naming the reference
 * ("Duplicate reference_no", "order_id already exists"). Not any "duplicate": "duplicate
 * transaction: same number and amount within 5 minutes" is the aggregator's own guard, a plain
 * refusal (failed, no alert; review s25-e, note).
 */
export function referenceCollision(httpStatus: number, message: string): boolean {
  return (
    httpStatus === 409 ||
    /\bduplicate\b[^.]{0,20}\b(reference|ref|reference_no|order[ _]?id)\b/i.test(message) ||
    /\b(reference|reference_no|order[ _]?id)\b[^.]{0,40}\balready\b/i.test(message)
  );
}

export function createExecute(opts: ExecuteOptions) {
  const { transport, logger } = opts;

  return async function execute(input: ExecuteRequest): Promise<ExecuteResult> {
    const path = input.region === "in" ? opts.indiaPath : EXECUTE_PATH;
    const endpoint = `POST ${path}`;
    const req = transport.validate(endpoint, executeRequestSchema, input);
    const referenceNo = req.referenceNo;
    const unknown = (
      reason: "timeout" | "network" | "server_error" | "malformed" | "unclear_refusal",
      detail: string,
    ): ExecuteResult => {
      logger?.warn(
        { endpoint, referenceNo, category: req.category, reason, detail },
        "execute outcome unknown; reconcile by status query",
      );
      return { kind: "unknown", referenceNo, reason, detail };
    };
    const rejected = (httpStatus: number, message: string, rateLimited: boolean): ExecuteResult => {
      logger?.warn(
        { endpoint, referenceNo, category: req.category, httpStatus },
        "execute rejected",
      );
      return { kind: "rejected", referenceNo, httpStatus, message, rateLimited };
    };

    let raw: RawResponse;
    try {
      raw = await transport.send("POST", path, req.body, opts.timeoutMs);
    } catch (err) {
      if (err instanceof ProviderTimeoutError) return unknown("timeout", err.message);
      if (err instanceof ProviderNetworkError) return unknown("network", err.message);
      return unknown("malformed", transport.asProviderError(err, endpoint).message);
    }

    if (raw.status >= 400 && raw.status < 500) {
      const message = transport.providerMessageOf(raw.text) ?? `HTTP ${raw.status}`;
      if (unclearRefusal(raw.status)) {
        return unknown("unclear_refusal", `${endpoint}: HTTP ${raw.status}: ${message}`);
      }
      return rejected(raw.status, message, raw.status === 429);
    }
    if (raw.status >= 500 && raw.status < 600) {
      return unknown("server_error", transport.errorForStatus(endpoint, raw).message);
    }
    if (raw.status < 200 || raw.status >= 300) {
      return unknown("malformed", `${endpoint}: unexpected HTTP status ${raw.status}`);
    }

    const parsed = transport.parseBody(raw.text);
    if (!parsed.ok) return unknown("malformed", `${endpoint}: ${parsed.detail}`);
    const envelope = readEnvelope(parsed.json);
    if (envelope.outcome === "error") {
      const message = transport.clean(envelope.message) || "provider reported an error";
      if (unclearRefusal(raw.status)) {
        return unknown("unclear_refusal", `${endpoint}: HTTP ${raw.status}: ${message}`);
      }
      return rejected(raw.status, message, false);
    }
    if (envelope.outcome === "unrecognised") {
      return unknown("malformed", `${endpoint}: neither a success nor an error envelope`);
    }
    const data = wireExecuteData.safeParse(envelope.data);
    if (!data.success) {
      return unknown("malformed", `${endpoint}: ${transport.zodDetail(data.error)}`);
    }
    const d = data.data;
    // An answer naming another reference is about another recharge (a duplicate guard answering
    // with an earlier transaction, a proxy handing back another request's answer): taken as ours
    // it charged our customer for that one (review s31-orders, 2). Whether ours was executed is
    // then unknown: the hold stays, and the status query by our own reference decides.
    if (d.referenceNo !== null && !sameReference(d.referenceNo, referenceNo)) {
      return unknown(
        "malformed",
        `${endpoint}: the answer echoes reference ${d.referenceNo.slice(0, 40)}, not ours (transaction ${d.transactionId.slice(0, 40)})`,
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
      message: transport.clean(envelope.message),
      amountPaisa: d.amountPaisa,
      serviceChargePaisa: d.serviceChargePaisa,
      instantDiscountPaisa: d.instantDiscountPaisa,
      debitAmountPaisa: d.debitAmountPaisa,
      ...(d.debitReported ? {} : { debitReported: false }),
      creditAvailablePaisa: d.creditAvailablePaisa,
      ...(d.commissionPaisa === null ? {} : { commissionPaisa: d.commissionPaisa }),
    };
  };
}
