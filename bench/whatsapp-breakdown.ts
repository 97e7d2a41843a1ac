import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { metaJson, signature, startWhatsAppStandInServer } from "../dev/whatsapp/index.ts";
import { intEnv } from "./lib/env.ts";
import { benchPrefix, deleteKeys } from "./lib/redis.ts";
import { type Helper, startHelper } from "./lib/rpc.ts";
import { WA_BENCH } from "./lib/whatsapp-creds.ts";
import {
  cpuMs,
  freePort,
  type StepChannel,
  startEmulator,
  stepRound,
  telegramChannel,
  whatsappChannel,
} from "./whatsapp.ts";

/**
 * Where a WhatsApp step's CPU goes beyond Telegram's (issue 31 target 4), by difference, in one
 * product process (lib/whatsapp-server.ts, as bench/whatsapp.ts starts it), rounds alternated:
 *  - tg: Telegram's step ("/start" -> the menu);
 *  - wa: WhatsApp's step ("hi" -> the menu), its sent / delivered / read statuses included;
 *  - wa-nostatus: the same step, the stand-in dropping the statuses (never POSTed);
 *  - hook: the message webhook alone (the bench listener's route: signature, JSON, normalise, the
 *    enqueue script into a queue nobody reads), a signed "hi" POSTed at the same rate;
 *  - status: a "delivered" status alone on the product's own webhook path, 3 per step at the rate;
 *  - floor: the floor route (signature + one XADD), at the rate.
 * Each figure is the product process's CPU over the round less its idle rate, per step (status:
 * per 3 requests, i.e. per step). Prints each round and the medians; then a counted pass of each
 * step (Redis commands by name). Run: `node --import tsx bench/whatsapp-breakdown.ts`
 * (BENCH_BD_ROUNDS, BENCH_WA_USERS, BENCH_WA_STEPS_PER_SECOND).
 */

const SERVER = fileURLToPath(new URL("./lib/whatsapp-server.ts", import.meta.url));

function signed(value: Record<string, unknown>) {
  const body = metaJson({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: WA_BENCH.displayPhoneNumber,
                phone_number_id: WA_BENCH.phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  });
  return { body, sig: signature(WA_BENCH.appSecret, body) };
}
const wamid = () => `wamid.HBgM${randomBytes(24).toString("base64url")}`;
const now = () => String(Math.floor(Date.now() / 1000));
let seq = 0;
const phone = () => `97797${String(10_000_000 + seq++).padStart(8, "0")}`;
const text = () => {
  const waId = phone();
  return signed({
    contacts: [{ profile: { name: "Bench" }, wa_id: waId }],
    messages: [{ from: waId, id: wamid(), timestamp: now(), type: "text", text: { body: "hi" } }],
  });
};
const status = () =>
  signed({
    statuses: [
      {
        id: wamid(),
        status: "delivered",
        timestamp: now(),
        recipient_id: phone(),
        pricing: {
          billable: false,
          pricing_model: "PMP",
          category: "service",
          type: "free_customer_service",
        },
      },
    ],
  });

/** `n` POSTs of `make()` to `url` at `perSecond`; the CPU per `per` requests. */
async function paced(
  helper: Helper,
  url: string,
  make: () => { body: string; sig: string },
  n: number,
  perSecond: number,
  idle: number,
  per: number,
): Promise<number> {
  const bodies = Array.from({ length: n }, make);
  const gap = 1000 / perSecond;
  const cpu0 = await cpuMs(helper);
  const start = performance.now();
  await Promise.all(
    bodies.map(async ({ body, sig }, i) => {
      const ahead = start + i * gap - performance.now();
      if (ahead > 0) await sleep(ahead);
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": sig },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    }),
  );
  const elapsed = performance.now() - start;
  const cpu = (await cpuMs(helper)) - cpu0;
  return ((cpu - idle * elapsed) * 1000 * per) / n;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const rounds = intEnv("BENCH_BD_ROUNDS", 6);
  const users = intEnv("BENCH_WA_USERS", 200);
  const perSecond = intEnv("BENCH_WA_STEPS_PER_SECOND", 40);
  const prefix = benchPrefix("wabd");
  const emu = await startEmulator();
  const standIn = await startWhatsAppStandInServer({
    appSecret: WA_BENCH.appSecret,
    accessToken: WA_BENCH.accessToken,
    phoneNumberId: WA_BENCH.phoneNumberId,
    verifyToken: WA_BENCH.verifyToken,
    displayPhoneNumber: WA_BENCH.displayPhoneNumber,
  });
  let helper: Helper | undefined;
  try {
    helper = await startHelper(SERVER, {
      BENCH_PREFIX: prefix,
      BENCH_PORT: String(await freePort()),
      BENCH_EMULATOR_ROOT: emu.root,
      BENCH_GRAPH_ROOT: standIn.graphRoot,
    });
    const h = helper;
    const info = await h.call<{ url: string; benchUrl: string; whatsappPath: string }>("info");
    standIn.standIn.setWebhookUrl(`${info.url}${info.whatsappPath}`);
    const tg = telegramChannel(emu.emulator, 7_400_001);
    const wa = whatsappChannel(standIn, 9_779_850_000_001);
    // First contact, twice (JIT), untimed.
    for (let i = 0; i < 2; i++)
      for (const ch of [tg, wa]) {
        await stepRound(h, ch, users, perSecond, 0);
        await sleep(1_000);
      }
    await sleep(1_000);
    const idle0 = await cpuMs(h);
    const t0 = performance.now();
    await sleep(2_000);
    const idle = ((await cpuMs(h)) - idle0) / (performance.now() - t0);
    const hook = `${info.benchUrl}/bench/wa-webhook`;
    const floor = `${info.benchUrl}/bench/wa-floor`;
    const statusUrl = `${info.url}${info.whatsappPath}`;
    const runs: Record<string, number[]> = {};
    const add = (k: string, v: number) => {
      runs[k] ??= [];
      runs[k].push(v);
    };
    for (let r = 0; r < rounds; r++) {
      const row: Record<string, number> = {};
      const step = async (name: string, ch: StepChannel, drop = false) => {
        if (drop) standIn.standIn.faults.dropNextWebhooks(3 * users, "statuses");
        const run = await stepRound(h, ch, users, perSecond, idle);
        row[name] = run.cpuUsPerStep;
        await sleep(1_100);
      };
      await step("tg", tg);
      await step("wa", wa);
      await step("wa-nostatus", wa, true);
      row.hook = await paced(h, hook, text, users, perSecond, idle, 1);
      const profile = process.env.BENCH_BD_PROFILE === "status" && r === rounds - 1;
      if (profile) await h.call("profileStart");
      row.status = await paced(h, statusUrl, status, 3 * users, 3 * perSecond, idle, 3);
      if (profile) await h.call("profileStop", "whatsapp-breakdown-status");
      row.floor = await paced(h, floor, text, users, perSecond, idle, 1);
      for (const [k, v] of Object.entries(row)) add(k, v);
      const load = (await import("node:os")).loadavg()[0]!.toFixed(2);
      console.log(
        `round ${r + 1} (load ${load}): ${Object.entries(row)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(" | ")}`,
      );
    }
    console.log(
      `medians over ${rounds} rounds (us per step): ${Object.entries(runs)
        .map(([k, v]) => `${k} ${median(v).toFixed(0)}`)
        .join(" | ")}`,
    );
    const paired = (name: string, xs: number[], digits: number) =>
      console.log(
        `${name} per round: ${xs.map((x) => x.toFixed(digits)).join(" ")}; median ${median(xs).toFixed(digits)}`,
      );
    paired(
      "wa / tg",
      runs.wa!.map((w, i) => w / runs.tg![i]!),
      2,
    );
    paired(
      "wa-nostatus / tg",
      runs["wa-nostatus"]!.map((w, i) => w / runs.tg![i]!),
      2,
    );
    paired(
      "wa - wa-nostatus (us)",
      runs.wa!.map((w, i) => w - runs["wa-nostatus"]![i]!),
      0,
    );
    paired(
      "status request / floor request",
      runs.status!.map((x, i) => x / 3 / runs.floor![i]!),
      2,
    );
    for (const ch of [tg, wa]) {
      await sleep(1_000);
      await h.call("countStart");
      await stepRound(h, ch, users, perSecond, 0);
      await ch.settled();
      const by = await h.call<Record<string, number>>("countStop");
      const total = Object.values(by).reduce((a, b) => a + b, 0);
      console.log(
        `${ch.channel} Redis commands per step: ${(total / users).toFixed(2)} ${JSON.stringify(
          Object.fromEntries(Object.entries(by).map(([k, v]) => [k, +(v / users).toFixed(2)])),
        )}`,
      );
    }
  } finally {
    await helper?.close();
    await standIn.close();
    await emu.close();
    await deleteKeys(prefix);
  }
}

await main();
process.exit(0);
