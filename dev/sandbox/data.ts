import type { Operator } from "../../src/catalog/index.ts";
import { rupeesToPaisa } from "../../src/money.ts";

/**
 * The sandbox's static world: package lists, offices, circles, plans and customers. Package prices
 * are integer paisa (written as rupees only on the wire, by src/money.ts); everything derived from a connection number is a pure
 * function of it, so the same number always shows the same customer and bill.
 */

export interface SandboxPackage {
  /** String ids for data packs and DTH ("PROD_001_inv" style), numbers for internet (spec 4.1). */
  id: string | number;
  name: string;
  /** Data packs and DTH send it as text ("100"), internet as a number. */
  amountPaisa: number;
}

type PackRow = [name: string, rupees: number];

/** Data packs per operator id (Ncell 2/3/4/113/114, NTC 8/9/10). */
const DATA_PACKS: Record<number, PackRow[]> = {
  2: [
    ["1.5 GB / 1 day", 100],
    ["3 GB / 3 days", 200],
    ["5 GB / 7 days", 350],
    ["12 GB / 28 days", 700],
    ["25 GB / 28 days", 1200],
    ["Night data 4 GB (11pm-6am) / 7 days", 150],
  ],
  3: [
    ["Ncell-to-Ncell 100 minutes / 7 days", 100],
    ["All-network 300 minutes / 28 days", 500],
    ["Unlimited Ncell calls / 1 day", 40],
  ],
  4: [
    ["100 SMS / 7 days", 20],
    ["500 SMS / 28 days", 60],
  ],
  113: [
    ["India roaming 1 GB / 7 days", 500],
    ["Global roaming 500 MB / 3 days", 1000],
  ],
  114: [
    ["Sadhain On 1 GB daily / 7 days", 299],
    ["Sadhain On 2 GB daily / 28 days", 999],
  ],
  8: [
    ["1 GB / 1 day", 75],
    ["4 GB / 7 days", 300],
    ["10 GB / 28 days", 650],
    ["30 GB / 28 days", 1200],
    ["Night pack 2 GB / 1 day", 30],
  ],
  9: [
    ["Namaste 100 minutes / 7 days", 100],
    ["Namaste 250 minutes / 28 days", 300],
  ],
  10: [
    ["Combo 2 GB + 100 minutes / 7 days", 249],
    ["Combo 8 GB + 400 minutes / 28 days", 899],
  ],
};

export function dataPacksFor(operatorId: number): SandboxPackage[] {
  return (DATA_PACKS[operatorId] ?? []).map(([name, rupees], i) => ({
    id: `PROD_${String(operatorId).padStart(3, "0")}_${String(i + 1).padStart(2, "0")}_inv`,
    name,
    amountPaisa: rupeesToPaisa(rupees),
  }));
}

const DTH_TIERS: PackRow[] = [
  ["Basic", 350],
  ["Silver", 450],
  ["Gold HD", 650],
];
/** Price of a term as thousandths of the monthly price (integer, so prices stay integer paisa). */
const DTH_TERMS: Array<[label: string, months: number, permille: number]> = [
  ["1 Month", 1, 1000],
  ["3 Months", 3, 2900],
  ["12 Months", 12, 11_000],
];

/** `monthlyRupees` scaled by `permille`, rounded to a multiple of `stepRupees`, in paisa. */
function termPrice(monthlyRupees: number, permille: number, stepRupees: number): number {
  const step = rupeesToPaisa(stepRupees);
  return Math.round((rupeesToPaisa(monthlyRupees) * permille) / (1000 * step)) * step;
}

/** DTH packages: each operator's tiers for 1, 3 and 12 months (longer terms a little cheaper). */
export function dthPackagesFor(op: Operator): SandboxPackage[] {
  const out: SandboxPackage[] = [];
  for (const [tier, monthly] of DTH_TIERS) {
    for (const [term, months, permille] of DTH_TERMS) {
      out.push({
        id: `DTH${op.id}_${tier.split(" ")[0]!.toUpperCase()}_${months}M`,
        name: `${op.name} ${tier} - ${term}`,
        amountPaisa: termPrice(monthly, permille, 10),
      });
    }
  }
  return out;
}

const INTERNET_SPEEDS: PackRow[] = [
  ["60 Mbps", 1000],
  ["100 Mbps", 1250],
  ["200 Mbps", 1700],
];
const INTERNET_TERMS: Array<[label: string, months: number, permille: number]> = [
  ["1 Month", 1, 1000],
  ["3 Months", 3, 2850],
  ["12 Months", 12, 10_500],
];

/** Internet packages per ISP; prices vary a little by ISP, ids are numbers (spec 4.1). */
export function internetPackagesFor(op: Operator): SandboxPackage[] {
  const markup = (op.id % 5) * 25;
  const out: SandboxPackage[] = [];
  INTERNET_SPEEDS.forEach(([speed, monthly], s) => {
    INTERNET_TERMS.forEach(([term, , permille], t) => {
      out.push({
        id: op.id * 100 + s * 10 + t + 1,
        name: `${op.name} ${speed} - ${term}`,
        amountPaisa: termPrice(monthly + markup, permille, 5),
      });
    });
  });
  return out;
}

export interface Office {
  value: string;
  label: string;
}

/** Khanepani offices: KUKL branches of the Kathmandu valley and a few town water offices. */
export const WATER_OFFICES: readonly Office[] = [
  { value: "501", label: "KUKL Kamaladi" },
  { value: "502", label: "KUKL Tripureshwor" },
  { value: "503", label: "KUKL Maharajgunj" },
  { value: "504", label: "KUKL Baneshwor" },
  { value: "505", label: "KUKL Chhetrapati" },
  { value: "506", label: "KUKL Mahankalchaur" },
  { value: "507", label: "KUKL Lalitpur" },
  { value: "508", label: "KUKL Bhaktapur" },
  { value: "509", label: "KUKL Kirtipur" },
  { value: "510", label: "KUKL Madhyapur Thimi" },
  { value: "511", label: "Nepal Khanepani Sansthan Bharatpur" },
  { value: "512", label: "Nepal Khanepani Sansthan Pokhara" },
];

/** NEA distribution centres. */
export const ELECTRICITY_OFFICES: readonly Office[] = [
  { value: "273", label: "Ratnapark DC" },
  { value: "274", label: "Maharajgunj DC" },
  { value: "275", label: "Kuleshwor DC" },
  { value: "276", label: "Baneshwor DC" },
  { value: "277", label: "Lagankhel DC" },
  { value: "278", label: "Pulchowk DC" },
  { value: "279", label: "Bhaktapur DC" },
  { value: "280", label: "Thimi DC" },
  { value: "281", label: "Jorpati DC" },
  { value: "282", label: "Kirtipur DC" },
  { value: "283", label: "Balaju DC" },
  { value: "284", label: "Chabahil DC" },
  { value: "301", label: "Pokhara DC" },
  { value: "302", label: "Biratnagar DC" },
  { value: "303", label: "Birgunj DC" },
  { value: "304", label: "Butwal DC" },
  { value: "305", label: "Bharatpur DC" },
];

/** India telecom circles. */
export const CIRCLES: ReadonlyArray<{ id: string; name: string }> = [
  "Andhra Pradesh",
  "Assam",
  "Bihar & Jharkhand",
  "Chennai",
  "Delhi NCR",
  "Gujarat",
  "Haryana",
  "Himachal Pradesh",
  "Jammu & Kashmir",
  "Karnataka",
  "Kerala",
  "Kolkata",
  "Madhya Pradesh & Chhattisgarh",
  "Maharashtra & Goa",
  "Mumbai",
  "North East",
  "Odisha",
  "Punjab",
  "Rajasthan",
  "Tamil Nadu",
  "UP East",
  "UP West & Uttarakhand",
  "West Bengal",
].map((name, i) => ({ id: String(i + 1), name }));

export interface IndiaPlan {
  id: string;
  amount: number;
  validity: string;
  description: string;
  category: string;
}

const PREPAID_PLANS: Array<[number, string, string, string]> = [
  [155, "24 days", "Unlimited calls, 2 GB total, 300 SMS", "Truly Unlimited"],
  [239, "28 days", "Unlimited calls, 1.5 GB/day, 100 SMS/day", "Truly Unlimited"],
  [299, "28 days", "Unlimited calls, 2 GB/day, 100 SMS/day", "Truly Unlimited"],
  [666, "84 days", "Unlimited calls, 1.5 GB/day, 100 SMS/day", "Truly Unlimited"],
  [2999, "365 days", "Unlimited calls, 2.5 GB/day, 100 SMS/day", "Annual"],
  [61, "Existing plan", "6 GB data add-on", "Data Add-on"],
];
const POSTPAID_PLANS: Array<[number, string, string, string]> = [
  [399, "1 month", "Unlimited calls, 75 GB, 100 SMS/day", "Postpaid"],
  [599, "1 month", "Unlimited calls, 150 GB, 1 add-on connection", "Postpaid"],
  [999, "1 month", "Unlimited calls, 200 GB, 3 add-on connections", "Postpaid"],
];
const DTH_PLANS: Array<[number, string, string, string]> = [
  [153, "1 month", "Basic FTA + DD channels", "DTH"],
  [299, "1 month", "Hindi Value Pack SD", "DTH"],
  [450, "1 month", "Family HD Pack", "DTH"],
  [1450, "3 months", "Family HD Pack (quarterly)", "DTH"],
];

export function indiaPlansFor(op: Operator): IndiaPlan[] {
  const rows =
    op.india === "dth" ? DTH_PLANS : op.india === "postpaid" ? POSTPAID_PLANS : PREPAID_PLANS;
  return rows.map(([amount, validity, description, category], i) => ({
    id: `${op.id}-${i + 1}`,
    amount,
    validity,
    description,
    category,
  }));
}

/** FNV-1a: a stable small hash so a connection number always maps to the same customer data. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const FIRST = ["Ram", "Sita", "Hari", "Gita", "Bishnu", "Kamala", "Suman", "Anita", "Prakash"];
const MIDDLE = ["Bahadur", "Kumari", "Prasad", "Devi", "Raj", "Kumar"];
const LAST = ["Shrestha", "Maharjan", "Adhikari", "Thapa", "Tamang", "Gurung", "Karki", "Pradhan"];
const PLACES = ["Baneshwor", "Kalanki", "Koteshwor", "Jawalakhel", "Chabahil", "Balaju", "Thimi"];

export function customerName(connectionNo: string): string {
  const h = stableHash(connectionNo);
  return `${FIRST[h % FIRST.length]} ${MIDDLE[(h >>> 4) % MIDDLE.length]} ${LAST[(h >>> 8) % LAST.length]}`;
}

export function customerAddress(connectionNo: string): string {
  const h = stableHash(`addr:${connectionNo}`);
  return `${PLACES[h % PLACES.length]}-${(h % 32) + 1}, Kathmandu`;
}

/** Set-top-box number for the DTH customer line. */
export function setTopBoxNo(connectionNo: string): string {
  return `STB${String(stableHash(`stb:${connectionNo}`)).padStart(10, "0")}`;
}
