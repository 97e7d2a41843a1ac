/**
 * Typed failures of the non-execute provider calls (execute reports its outcome as a value instead,
 * see ExecuteResult). Every message is built from the endpoint label ("POST /np/recharge/package"),
 * the HTTP status and the provider's own text with the token redacted; never a URL or header.
 */

export type ProviderErrorKind =
  | "auth"
  | "rejected"
  | "rate_limited"
  | "unavailable"
  | "timeout"
  | "network"
  | "malformed"
  | "invalid_request";

export interface ProviderErrorInit {
  endpoint: string;
  httpStatus?: number | undefined;
  providerMessage?: string | undefined;
}

export abstract class ProviderError extends Error {
  abstract readonly kind: ProviderErrorKind;
  /** Method and path relative to the base URL, e.g. "POST /np/order/status". */
  readonly endpoint: string;
  readonly httpStatus: number | undefined;
  /** The provider's own message (token redacted), when it sent one. */
  readonly providerMessage: string | undefined;

  constructor(message: string, init: ProviderErrorInit) {
    super(message);
    this.name = new.target.name;
    this.endpoint = init.endpoint;
    this.httpStatus = init.httpStatus;
    this.providerMessage = init.providerMessage;
  }

  /** Whether repeating the same call may succeed (used by the retry policy of non-execute calls). */
  get retryable(): boolean {
    return (
      this.kind === "rate_limited" ||
      this.kind === "unavailable" ||
      this.kind === "timeout" ||
      this.kind === "network"
    );
  }
}

function describe(init: ProviderErrorInit, what: string): string {
  const status = init.httpStatus === undefined ? "" : ` (HTTP ${init.httpStatus})`;
  const said = init.providerMessage ? `: ${init.providerMessage}` : "";
  return `${init.endpoint}: ${what}${status}${said}`;
}

/** 401: the token is missing, wrong, or used from an IP it is not bound to. */
export class ProviderAuthError extends ProviderError {
  readonly kind = "auth" as const;
  constructor(init: ProviderErrorInit) {
    super(describe(init, "provider refused the credentials"), init);
  }
}

/** A 4xx other than 401/429, or a 2xx body saying error: the request itself was refused. */
export class ProviderRejectedError extends ProviderError {
  readonly kind = "rejected" as const;
  constructor(init: ProviderErrorInit) {
    super(describe(init, "provider rejected the request"), init);
  }
}

/**
 * A status query refused in the status endpoints' own error shape (spec 7, shape B) saying there is
 * no such order: the one answer that may be read as "the provider never executed it". Anything else
 * from a status endpoint (a gateway's HTML 404, an empty body, JSON of another shape) is not this.
 */
export class ProviderNotFoundError extends ProviderRejectedError {}

/** 429. `retryAfterMs` is the provider's Retry-After, when it sent a readable one. */
export class ProviderRateLimitedError extends ProviderError {
  readonly kind = "rate_limited" as const;
  readonly retryAfterMs: number | null;
  constructor(init: ProviderErrorInit & { retryAfterMs: number | null }) {
    super(describe(init, "provider is rate limiting"), init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * 5xx: the provider (or a gateway in front of it) failed; on a status endpoint also any other 4xx
 * that is not the provider's own error body (a gateway or proxy answering in its place).
 */
export class ProviderUnavailableError extends ProviderError {
  readonly kind = "unavailable" as const;
  constructor(init: ProviderErrorInit) {
    super(describe(init, "provider unavailable"), init);
  }
}

/** No complete response within the call's timeout. */
export class ProviderTimeoutError extends ProviderError {
  readonly kind = "timeout" as const;
  readonly timeoutMs: number;
  constructor(init: ProviderErrorInit & { timeoutMs: number }) {
    super(describe(init, `no response within ${init.timeoutMs} ms`), init);
    this.timeoutMs = init.timeoutMs;
  }
}

/** Connection refused, reset, DNS failure...; `detail` names the low-level cause (e.g. ECONNRESET). */
export class ProviderNetworkError extends ProviderError {
  readonly kind = "network" as const;
  readonly detail: string;
  constructor(init: ProviderErrorInit & { detail: string }) {
    super(describe(init, `network failure (${init.detail})`), init);
    this.detail = init.detail;
  }
}

/** Non-JSON, HTML error page, empty body, unexpected status class or schema mismatch. */
export class ProviderMalformedResponseError extends ProviderError {
  readonly kind = "malformed" as const;
  readonly detail: string;
  constructor(init: ProviderErrorInit & { detail: string }) {
    super(describe(init, `malformed response: ${init.detail}`), init);
    this.detail = init.detail;
  }
}

/** The caller's arguments were invalid; nothing was sent. */
export class ProviderInvalidRequestError extends ProviderError {
  readonly kind = "invalid_request" as const;
  readonly detail: string;
  constructor(init: ProviderErrorInit & { detail: string }) {
    super(describe(init, `invalid request, not sent: ${init.detail}`), init);
    this.detail = init.detail;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}
