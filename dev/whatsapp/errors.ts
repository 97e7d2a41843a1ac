// Meta's error envelope: `{error:{message,type,code,error_subcode?,error_data:{details},fbtrace_id}}`.
// HTTP 401 for a bad token (190), 400 for everything else, 413 for a body over 3 MB.
import { randomBytes } from "node:crypto";

export interface MetaErrorBody {
  error: {
    message: string;
    type: string;
    code: number;
    error_subcode?: number;
    error_data: { messaging_product: "whatsapp"; details: string };
    fbtrace_id: string;
  };
}

/** Titles Meta gives the codes the product meets (whatsapp-notes.md §2). */
export const ERROR_TITLES: Record<number, string> = {
  100: "Invalid parameter",
  190: "Invalid OAuth access token - Cannot parse access token",
  130429: "Rate limit hit",
  131000: "Something went wrong",
  131026: "Message undeliverable",
  131047: "Re-engagement message",
  131048: "Spam rate limit hit",
  131049: "This message was not delivered to maintain healthy ecosystem engagement.",
  131056: "(Business Account, Consumer Account) pair rate limit hit",
};

const DEFAULT_DETAILS: Record<number, string> = {
  131047:
    "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
  130429: "Cloud API message throughput has been reached.",
  131056:
    "Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.",
  131026: "Message Undeliverable.",
};

export const titleOf = (code: number): string => ERROR_TITLES[code] ?? `Error ${code}`;
export const detailsOf = (code: number, details?: string): string =>
  details ?? DEFAULT_DETAILS[code] ?? titleOf(code);

export class MetaError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    readonly httpStatus = code === 190 ? 401 : 400,
    readonly subcode?: number,
  ) {
    super(`(#${code}) ${titleOf(code)}`);
  }

  body(): MetaErrorBody {
    return {
      error: {
        message: this.message,
        type: "OAuthException",
        code: this.code,
        ...(this.subcode === undefined ? {} : { error_subcode: this.subcode }),
        error_data: { messaging_product: "whatsapp", details: this.details },
        fbtrace_id: randomBytes(12).toString("base64url"),
      },
    };
  }
}

export const invalidParam = (details: string) => new MetaError(100, details);
