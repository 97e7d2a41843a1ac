// The Graph API's face: POST /{version}/{phone-number-id}/messages with a Bearer token. Anything
// else (an edit or delete attempt included: the Cloud API has neither) answers 400 code 100.
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { StandInCore } from "./core.ts";
import { invalidParam, MetaError } from "./errors.ts";

const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function createGraphRoutes(core: StandInCore): Hono {
  const app = new Hono();
  app.post("/:version{v\\d+\\.\\d+}/:phoneNumberId/messages", async (c) => {
    try {
      if (c.req.header("authorization") !== `Bearer ${core.opts.accessToken}`)
        throw new MetaError(190, "Invalid OAuth access token - Cannot parse access token");
      const id = c.req.param("phoneNumberId");
      if (id !== core.opts.phoneNumberId) throw unsupported(id);
      const bytes = await c.req.arrayBuffer();
      if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
      let raw: unknown;
      try {
        raw = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        throw invalidParam("the request body is not JSON");
      }
      return c.json(core.handle(raw));
    } catch (error) {
      if (error instanceof MetaError) return fail(c, error, core);
      throw error;
    }
  });
  app.all("*", (c) => fail(c, unsupported(c.req.path), core));
  return app;
}

function unsupported(what: string): MetaError {
  return new MetaError(
    100,
    `Unsupported request. Object with ID '${what}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    400,
    33,
  );
}

const tooLarge = () => new MetaError(100, "Request body larger than 3 MB", 413);

function fail(c: Context, error: MetaError, core?: StandInCore): Response {
  // A refusal is what a failing product test needs to read first.
  core?.opts.logger?.warn({ code: error.code, details: error.details }, "stand-in: refused");
  return c.json(error.body(), error.httpStatus as ContentfulStatusCode);
}
