import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The provider's two error shapes (spec 7): A `{error: true, message}` on lookups and listings,
 * B `{status, message, data: []}` on execute, status and balance; and request bodies read
 * leniently (JSON, or form-encoded as the status samples send) but never into a 5xx.
 */

export type ErrorShape = "A" | "B";

function errorBody(shape: ErrorShape, message: string, statusValue: false | "failed") {
  return shape === "A" ? { error: true, message } : { status: statusValue, message, data: [] };
}

export function sendError(
  c: Context,
  shape: ErrorShape,
  httpStatus: ContentfulStatusCode,
  message: string,
  statusValue: false | "failed" = false,
) {
  return c.json(errorBody(shape, message, statusValue), httpStatus);
}

const MAX_BODY_BYTES = 64 * 1024;

export type BodyResult =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; httpStatus: 400 | 413; message: string };

/** The request body as an object: JSON, form-encoded (as the status samples send), or empty ({}). */
export async function readBody(c: Context): Promise<BodyResult> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) {
    return { ok: false, httpStatus: 413, message: "Request body too large" };
  }
  let text: string;
  try {
    text = await c.req.text();
  } catch {
    return { ok: false, httpStatus: 400, message: "Unreadable request body" };
  }
  if (text.length > MAX_BODY_BYTES) {
    return { ok: false, httpStatus: 413, message: "Request body too large" };
  }
  if (text.trim() === "") return { ok: true, body: {} };
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  // A body that looks like JSON is JSON whatever the header says (curl -d sends a form type).
  const looksJson = /^\s*[[{]/.test(text);
  if (type.includes("application/x-www-form-urlencoded") && !looksJson) {
    return { ok: true, body: Object.fromEntries(new URLSearchParams(text)) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, httpStatus: 400, message: "Malformed JSON body" };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, httpStatus: 400, message: "The request body must be a JSON object" };
  }
  return { ok: true, body: json as Record<string, unknown> };
}

export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });
