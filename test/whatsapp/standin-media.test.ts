import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningStandIn, startWhatsAppStandInServer } from "../../dev/whatsapp/index.ts";
import { createWhatsAppClient } from "../../src/whatsapp/client.ts";

/**
 * The stand-in's media rules (Meta's, shared/spec/whatsapp-notes.md): POST /{id}/media takes a
 * multipart upload of a document type it knows and answers its id; a `document` message names an
 * uploaded id (or a link, exactly one); a media id it never gave out is refused. Driven through
 * the product's own client, as the router drives it.
 */
const TOKEN = "system-user-token";
const PNID = "1234567890";
const PHONE = "9779812345678";
const PDF = new TextEncoder().encode("%PDF-1.3\n%fake but well-headed\n");

describe("WhatsApp stand-in: media uploads and document messages", () => {
  let running: RunningStandIn;
  const client = () =>
    createWhatsAppClient({
      apiRoot: running.graphRoot,
      apiVersion: "v24.0",
      phoneNumberId: PNID,
      accessToken: TOKEN,
      timeoutMs: 5_000,
      attempts: 1,
      maxBackoffMs: 10,
      logger: pino({ level: "silent" }),
    });

  beforeEach(async () => {
    running = await startWhatsAppStandInServer({
      appSecret: "s",
      accessToken: TOKEN,
      phoneNumberId: PNID,
    });
    // The customer wrote first: the 24-hour window is open.
    await running.standIn.userSends({ waId: PHONE }, "hi");
  });
  afterEach(() => running.close());

  it("an uploaded PDF is sent as a document message, and kept with its bytes", async () => {
    const { id } = await client().upload({
      bytes: PDF,
      filename: "receipt-1.pdf",
      mimeType: "application/pdf",
    });
    expect(id).toMatch(/^\d+$/);
    const { wamid } = await client().send(PHONE, {
      type: "document",
      document: { id, filename: "receipt-1.pdf", caption: "Receipt" },
    });
    const got = running.standIn.messagesTo(PHONE).find((m) => m.wamid === wamid);
    expect(got).toMatchObject({ kind: "document", text: "Receipt" });
    expect(got?.document?.filename).toBe("receipt-1.pdf");
    expect(Buffer.from(got!.document!.bytes).equals(Buffer.from(PDF))).toBe(true);
  });

  it("refuses a type it does not know, bytes that are not the PDF they claim, an empty file", async () => {
    const up = (bytes: Uint8Array, mimeType: string) =>
      client().upload({ bytes, filename: "x", mimeType });
    await expect(up(PDF, "application/x-evil")).rejects.toMatchObject({ code: 100 });
    await expect(up(new TextEncoder().encode("hello"), "application/pdf")).rejects.toMatchObject({
      code: 100,
    });
    await expect(up(new Uint8Array(0), "application/pdf")).rejects.toMatchObject({ code: 100 });
  });

  it("refuses a document message naming no upload, an unknown id, or both an id and a link", async () => {
    const send = (document: Record<string, string>) =>
      client().send(PHONE, { type: "document", document } as never);
    await expect(send({ caption: "x" })).rejects.toMatchObject({ code: 100 });
    await expect(send({ id: "999" })).rejects.toMatchObject({ code: 100 });
    await expect(send({ id: "1", link: "https://example.org/a.pdf" })).rejects.toMatchObject({
      code: 100,
    });
    expect(running.standIn.messagesTo(PHONE)).toHaveLength(0);
  });

  it("an upload needs the system user's token", async () => {
    const bad = createWhatsAppClient({
      apiRoot: running.graphRoot,
      apiVersion: "v24.0",
      phoneNumberId: PNID,
      accessToken: "wrong",
      timeoutMs: 5_000,
      attempts: 1,
      maxBackoffMs: 10,
      logger: pino({ level: "silent" }),
    });
    await expect(
      bad.upload({ bytes: PDF, filename: "r.pdf", mimeType: "application/pdf" }),
    ).rejects.toMatchObject({ code: 190 });
  });
});
