import { Hono } from "hono";
import type { Logger } from "../logger.ts";
import { GatewayError, type PaymentId, paymentIdSchema } from "./gateway/port.ts";
import type { TopUp } from "./model.ts";
import type { TopUps } from "./service.ts";
import { UnreadableTopUpError } from "./store.ts";

/**
 * The page the payer's browser comes back to after the gateway's checkout. The redirect is not
 * authenticated (anyone can forge one), so its query is never believed: only the pidx is read, and
 * only to ask the gateway (a lookup) before anything is credited. The page says one of eleven
 * things and nothing else: no amount, no balance, no name, no ids, so a forged or guessed pidx
 * learns nothing. The bot's push carries the details, to the chat that started the top-up.
 *
 * Lookups cost the merchant's key a call each, so the page asks the gateway only about an open
 * top-up (a held or final one answers from the store), at most one lookup per pidx in flight in
 * this process, and not again within `minGapMs` of the last one (reloads read the store).
 */

type Outcome =
  | "received"
  | "not_completed"
  | "confirming"
  | "checking"
  | "not_added"
  | "refunded"
  | "refunded_part"
  | "refunded_none_back"
  | "refunded_rest"
  | "refund_checking"
  | "refund_unknown";

const TEXT: Record<Outcome, { title: string; en: string; ne: string; hi: string }> = {
  received: {
    title: "Payment received",
    en: "Payment received. You can return to the chat.",
    ne: "भुक्तानी प्राप्त भयो। अब च्याटमा फर्कनुहोस्।",
    hi: "भुगतान मिल गया। अब चैट पर लौटें।",
  },
  not_completed: {
    title: "Payment not completed",
    en: "Payment not completed. Nothing was added.",
    ne: "भुक्तानी पूरा भएन। केही थपिएन।",
    hi: "भुगतान पूरा नहीं हुआ। कुछ नहीं जुड़ा।",
  },
  confirming: {
    title: "Confirming payment",
    en: "We are confirming your payment. The bot will message you in the chat.",
    ne: "भुक्तानी पुष्टि हुँदैछ। बोटले च्याटमा सन्देश पठाउनेछ।",
    hi: "भुगतान की पुष्टि हो रही है। बॉट आपको चैट में संदेश भेजेगा।",
  },
  checking: {
    title: "Payment being checked",
    en: "Our team is checking this payment. Nothing is lost. The bot will message you in the chat.",
    ne: "हाम्रो टोलीले यो भुक्तानी जाँच गर्दैछ। केही गुमेको छैन। बोटले च्याटमा सन्देश पठाउनेछ।",
    hi: "हमारी टीम इस भुगतान की जाँच कर रही है। कुछ नहीं खोया है। बॉट आपको चैट में संदेश भेजेगा।",
  },
  not_added: {
    title: "Payment not added",
    en: "This payment was not added to your balance. The bot has messaged you in the chat.",
    ne: "यो भुक्तानी तपाईंको मौज्दातमा थपिएन। बोटले च्याटमा सन्देश पठाएको छ।",
    hi: "यह भुगतान आपके बैलेंस में नहीं जोड़ा गया। बॉट ने चैट में संदेश भेजा है।",
  },
  // Credited, then refunded at the gateway in whole, and some of it taken back: neither "not
  // completed" nor "nothing was added" is true. No figure: the chat has it.
  refunded: {
    title: "Payment refunded",
    en: "Khalti refunded this payment, and your balance was adjusted for it. The bot has messaged you the amounts in the chat.",
    ne: "खल्तीले यो भुक्तानी फिर्ता गर्‍यो, र तपाईंको मौज्दात त्यसअनुसार मिलाइयो। बोटले रकमसहित च्याटमा सन्देश पठाएको छ।",
    hi: "खल्ती ने यह भुगतान लौटा दिया, और आपका बैलेंस उसके अनुसार ठीक किया गया। बॉट ने रकम के साथ चैट में संदेश भेजा है।",
  },
  // An admin's figure less than the credit: part of it refunded. No figure, and no word on the
  // balance (what was taken back may be nothing): the chat has both.
  refunded_part: {
    title: "Payment partly refunded",
    en: "Khalti refunded part of this payment. The bot has messaged you the amounts in the chat.",
    ne: "खल्तीले यो भुक्तानीको केही भाग फिर्ता गर्‍यो। बोटले रकमसहित च्याटमा सन्देश पठाएको छ।",
    hi: "खल्ती ने इस भुगतान का कुछ हिस्सा लौटा दिया। बॉट ने रकम के साथ चैट में संदेश भेजा है।",
  },
  // Refunded after the credit was spent: nothing was taken back, so not "adjusted".
  refunded_none_back: {
    title: "Payment refunded",
    en: "Khalti refunded this payment. The bot has messaged you the amounts in the chat.",
    ne: "खल्तीले यो भुक्तानी फिर्ता गर्‍यो। बोटले रकमसहित च्याटमा सन्देश पठाएको छ।",
    hi: "खल्ती ने यह भुगतान लौटा दिया। बॉट ने रकम के साथ चैट में संदेश भेजा है।",
  },
  refund_checking: {
    title: "Refund being checked",
    en: "Khalti reports that part of this payment was refunded. Our team is checking how much; your balance is unchanged for now. The bot will message you in the chat.",
    ne: "खल्तीका अनुसार यो भुक्तानीको केही भाग फिर्ता भयो। कति फिर्ता भयो भनेर हाम्रो टोलीले जाँच गर्दैछ; अहिलेलाई तपाईंको मौज्दात उस्तै छ। बोटले च्याटमा सन्देश पठाउनेछ।",
    hi: "खल्ती के अनुसार इस भुगतान का कुछ हिस्सा लौटाया गया है। कितना, हमारी टीम इसकी जाँच कर रही है; अभी आपका बैलेंस नहीं बदला है। बॉट आपको चैट में संदेश भेजेगा।",
  },
  // Khalti said Completed with refunded: true: the refund may be whole, so not "part".
  refund_unknown: {
    title: "Refund being checked",
    en: "Khalti reports that this payment was refunded, but not how much. Our team is checking; your balance is unchanged for now. The bot will message you in the chat.",
    ne: "खल्तीका अनुसार यो भुक्तानी फिर्ता भयो, तर कति भनेको छैन। हाम्रो टोलीले जाँच गर्दैछ; अहिलेलाई तपाईंको मौज्दात उस्तै छ। बोटले च्याटमा सन्देश पठाउनेछ।",
    hi: "खल्ती के अनुसार यह भुगतान लौटाया गया है, पर कितना, यह नहीं बताया। हमारी टीम इसकी जाँच कर रही है; अभी आपका बैलेंस नहीं बदला है। बॉट आपको चैट में संदेश भेजेगा।",
  },
  // Refunded in part before any credit, and the rest credited on an admin's figure.
  refunded_rest: {
    title: "Payment partly refunded",
    en: "Khalti refunded part of this payment; the rest was added to your balance. The bot has messaged you the amounts in the chat.",
    ne: "खल्तीले यो भुक्तानीको केही भाग फिर्ता गर्‍यो; बाँकी तपाईंको मौज्दातमा थपियो। बोटले रकमसहित च्याटमा सन्देश पठाएको छ।",
    hi: "खल्ती ने इस भुगतान का कुछ हिस्सा लौटा दिया; बाकी आपके बैलेंस में जोड़ दिया गया। बॉट ने रकम के साथ चैट में संदेश भेजा है।",
  },
};

function page(o: Outcome): string {
  const t = TEXT[o];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${t.title}</title></head>
<body><main><h1 data-outcome="${o}">${t.title}</h1><p>${t.en}</p><p lang="ne">${t.ne}</p><p lang="hi">${t.hi}</p></main></body></html>`;
}

function outcomeOf(t: TopUp | null): Outcome {
  switch (t?.status) {
    case "completed":
      return "received";
    case "initiated":
    case "pending":
      return "confirming";
    case "held":
      return "checking";
    case "rejected":
      return "not_added";
    case "partial_refund":
      return t?.partialRefund?.mayBeWhole ? "refund_unknown" : "refund_checking";
    // Refunded before it was credited: paid, but nothing was added (or only the rest of a
    // partial refund, on an admin's figure).
    case "refunded": {
      if (t?.creditedPaisa === undefined) return "not_added";
      if (t.partialRefund?.uncredited) return "refunded_rest";
      const returned = t.partialRefund?.decision?.returnedPaisa;
      if (returned !== undefined && returned < t.creditedPaisa) return "refunded_part";
      return t.reversedPaisa === 0 ? "refunded_none_back" : "refunded";
    }
    default:
      return "not_completed";
  }
}

/** Remembered pidxs of recent lookups, at most this many (the oldest forgotten first). */
const MAX_REMEMBERED = 10_000;

export function topUpReturnRoutes(opts: {
  topUps: TopUps;
  logger: Logger;
  /** The least time between two of this page's lookups of one pidx. */
  minGapMs?: number;
  now?: () => number;
}) {
  const now = opts.now ?? Date.now;
  const minGapMs = opts.minGapMs ?? 2_000;
  const inFlight = new Map<PaymentId, Promise<TopUp | null>>();
  const lastLookup = new Map<PaymentId, number>();

  /** One lookup per pidx at a time, none within minGapMs of the last: the rest read the store. */
  function visit(pidx: PaymentId): Promise<TopUp | null> {
    const running = inFlight.get(pidx);
    if (running) return running;
    const last = lastLookup.get(pidx);
    if (last !== undefined && now() - last < minGapMs) return opts.topUps.get(pidx);
    lastLookup.delete(pidx);
    lastLookup.set(pidx, now());
    if (lastLookup.size > MAX_REMEMBERED) {
      const oldest = lastLookup.keys().next().value;
      if (oldest !== undefined) lastLookup.delete(oldest);
    }
    const p = opts.topUps.visit(pidx).finally(() => inFlight.delete(pidx));
    inFlight.set(pidx, p);
    return p;
  }

  const app = new Hono();
  app.get("/", async (c) => {
    const headers = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
    const pidx = paymentIdSchema.safeParse(c.req.query("pidx"));
    if (!pidx.success) return c.html(page("not_completed"), 400, headers);
    let outcome: Outcome;
    try {
      outcome = outcomeOf(await visit(pidx.data));
    } catch (err) {
      if (err instanceof UnreadableTopUpError) {
        // A record that does not parse (this one, or one read beside it): the admins are told of
        // it (the reconciler's pass, the caps' reading); the payer is not shown a 500.
        opts.logger.error(
          { member: err.member, issues: err.issues },
          "top-up record does not parse at the return page; answered 'checking'",
        );
        return c.html(page("checking"), 200, headers);
      }
      if (!(err instanceof GatewayError)) {
        // The store did not answer (Redis down): the payment is not lost, the reconciler looks it
        // up once the store is back and the bot tells the chat. The payer is told so, in the
        // page's words, not the public app's bare JSON 500.
        opts.logger.error(
          { err: err instanceof Error ? err.message : String(err) },
          "top-up return page: the store did not answer; answered 'confirming'",
        );
        return c.html(page("confirming"), 503, headers);
      }
      opts.logger.warn(
        { kind: err.kind },
        "top-up lookup at return failed; the reconciler retries",
      );
      outcome = "confirming";
    }
    return c.html(page(outcome), 200, headers);
  });
  return app;
}
