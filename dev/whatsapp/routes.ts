// The Graph API's face: POST /{version}/{phone-number-id}/messages with a Bearer token, and
// POST /{version}/{phone-number-id}/media (multipart: messaging_product, type, file) for the
// documents a message then names by id. Anything else (an edit or delete attempt included: the
// Cloud API has neither) answers 400 code 100.
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DOCUMENT_MIME_TYPES, MAX_DOCUMENT_BYTES } from "./checks.ts";
import type { StandInCore } from "./core.ts";
import { invalidParam, MetaError } from "./errors.ts";

const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** The caller's token and phone number id, as every Graph call checks them. */
function authorize(c: Context, core: StandInCore): void {
  if (c.req.header("authorization") !== `Bearer ${core.opts.accessToken}`)
    throw new MetaError(190, "Invalid OAuth access token - Cannot parse access token");
  const id = c.req.param("phoneNumberId") ?? "";
  if (id !== core.opts.phoneNumberId) throw unsupported(id);
}

/** A media upload, checked as Meta checks it: the product, the type, a file of that type and size. */
async function upload(c: Context, core: StandInCore) {
  authorize(c, core);
  if (!(c.req.header("content-type") ?? "").startsWith("multipart/form-data"))
    throw invalidParam("a media upload is multipart/form-data");
  const form = await c.req.formData();
  if (form.get("messaging_product") !== "whatsapp")
    throw invalidParam("Param messaging_product must be whatsapp");
  const type = form.get("type");
  const file = form.get("file");
  if (typeof type !== "string" || !DOCUMENT_MIME_TYPES.has(type))
    throw invalidParam(`Param type: unsupported media type ${String(type)}`);
  if (!(file instanceof File)) throw invalidParam("Param file is required");
  if (file.size === 0 || file.size > MAX_DOCUMENT_BYTES)
    throw invalidParam(`Param file: a document is 1 byte to 100 MB, got ${file.size}`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (type === "application/pdf" && new TextDecoder().decode(bytes.subarray(0, 5)) !== "%PDF-")
    throw invalidParam("Param file: not a PDF");
  return core.upload({ filename: file.name, mimeType: type, bytes });
}

export function createGraphRoutes(core: StandInCore): Hono {
  const app = new Hono();
  app.post("/:version{v\\d+\\.\\d+}/:phoneNumberId/media", async (c) => {
    try {
      return c.json(await upload(c, core));
    } catch (error) {
      if (error instanceof MetaError) return fail(c, error, core);
      throw error;
    }
  });
  app.post("/:version{v\\d+\\.\\d+}/:phoneNumberId/messages", async (c) => {
    try {
      authorize(c, core);
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
