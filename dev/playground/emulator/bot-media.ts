// sendPhoto, as Telegram takes it: an uploaded file (multipart, what grammY sends for an
// InputFile) or a file_id / URL string, with an optional caption (up to 1024 characters) and
// keyboard. The chat shows a photo message whose text is the caption; the uploaded bytes are kept
// for the tests (`photoBytes`), as a user would save the image.
import {
  badRequest,
  type Handler,
  parse,
  readMarkup,
  schemas,
  takeFloodSlot,
  targetChat,
} from "./bot-checks.ts";
import type { EmulatorCore } from "./core.ts";
import type { UploadedFile } from "./params.ts";

function isUpload(value: unknown): value is UploadedFile {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as UploadedFile).bytes instanceof Uint8Array
  );
}

function sendPhoto(core: EmulatorCore, params: Record<string, unknown>): unknown {
  const p = parse(schemas.sendMessage, { ...params, text: undefined });
  const photo = params.photo;
  const bytes = isUpload(photo) ? photo.bytes : undefined;
  if (!bytes && (typeof photo !== "string" || photo === "")) {
    throw badRequest("there is no photo in the request");
  }
  if (bytes && bytes.length === 0) throw badRequest("file must be non-empty");
  const caption = typeof params.caption === "string" ? params.caption : "";
  if (caption.length > 1024) throw badRequest("message caption is too long");
  const chat = targetChat(core, p.chat_id);
  const markup = readMarkup(p.reply_markup);
  takeFloodSlot(core, chat);
  const ids = core.nextFileId("AgAC");
  const message = core.addMessage(chat, {
    from: "bot",
    kind: "photo",
    text: caption,
    media: { photo: [{ ...ids, width: 512, height: 512, file_size: bytes?.length ?? 0 }] },
    ...markup,
  });
  if (bytes) core.photoBytes.set(`${chat.id}:${message.id}`, bytes);
  return core.messageAsTelegram(message);
}

export const mediaHandlers: Record<string, Handler> = { sendPhoto };
