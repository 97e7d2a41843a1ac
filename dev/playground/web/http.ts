// The playground API's request helpers: zod parsing that answers 400 with the issues, and a JSON
// body reader (the guard already insisted on Content-Type: application/json).
import type { Context } from "hono";
import type { z } from "zod";

/** Answered 400 `{error, issues?}` by the API's error handler. */
export class BadRequest extends Error {
  constructor(
    message: string,
    readonly issues?: unknown,
  ) {
    super(message);
  }
}

export function parse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  message: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequest(message, result.error.issues);
  return result.data;
}

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let value: unknown;
  try {
    value = JSON.parse(await c.req.text());
  } catch {
    throw new BadRequest("body must be JSON");
  }
  return parse(schema, value, "invalid body");
}
