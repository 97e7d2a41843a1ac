/**
 * The aggregator's operators as data (spec section 1, provider-notes "Operator names by id").
 * India operator ids, the electricity operator and its operator type are not documented: each is a
 * setting (INDIA_OPERATOR_IDS, ELECTRICITY_OPERATOR_ID, ELECTRICITY_OPERATOR_TYPE_ID) whose default
 * is this project's assumption, and what the customer is offered is further cut down to what the
 * provider's operator lookups list (./offer.ts).
 */

/** Where an operator is: Nepal or India (the one declaration; the others import it). */
export const REGIONS = ["np", "in"] as const;
export type Region = (typeof REGIONS)[number];

export const CATEGORIES = [
  "mobile",
  "datapack",
  "dth",
  "internet",
  "landline",
  "water",
  "electricity",
  "india",
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * A category's id as orders and saved numbers carry it: the built-in ones above (the operators'
 * data) or a category added at start (src/categories/index.ts lists them): lower-case words.
 */
export const CATEGORY_ID = /^[a-z][a-z0-9_-]{0,31}$/;

/** What a conversation must collect before execute. */
type Flow =
  | "amount" // number + amount (mobile, landline)
  | "packages" // data-pack listing
  | "dth_packages" // DTH listing (object with customer info)
  | "internet_packages" // multistep internet group
  | "water_bill" // office code + month + bill check
  | "electricity_bill" // office code + SC no + bill check
  | "circle"; // India: circle + number + amount or plan

/** Mobile operator families by prefix: A = Ncell, B = Nepal Telecom (NTC). */
export type Family = "ncell" | "ntc";

type Product = "data" | "voice" | "sms" | "roaming" | "special" | "recommended";

/**
 * How an amount typed for the operator is bounded (spec section 1): `ntc_mobile` from Rs 50 to the
 * NTC mobile maximum (a catalogue setting, Rs 3,000 by default), `up_to_5000` from Rs 50 to
 * Rs 5,000. Absent: the amount comes from a package or a bill.
 */
type AmountRule = "ntc_mobile" | "up_to_5000";

/**
 * Which prefixes the operator's numbers start with: `line` those of its NTC line
 * (NTC_LINE_PREFIXES, none for a line not listed there), `family` those of its family
 * (FAMILY_PREFIXES). Absent: no prefix rule.
 */
type PrefixRule = "line" | "family";

export interface Operator {
  id: number;
  name: string;
  category: Category;
  operatorTypeId: number;
  region: Region;
  flow: Flow;
  family?: Family;
  product?: Product;
  /** NTC mobile subtypes, for the mobile flow's override buttons. */
  line?: "prepaid" | "postpaid" | "cdma" | "landline" | "fibre_voice" | "toll_free";
  /** India: what kind of recharge. */
  india?: "prepaid" | "postpaid" | "dth";
  /** The bounds of a typed amount (catalog.amountBounds). */
  amounts?: AmountRule;
  /** The number prefix rule (prefixesFor). */
  prefixes?: PrefixRule;
}

/**
 * Operator type ids from the request samples; 8 for electricity is an assumption (not documented),
 * the default of ELECTRICITY_OPERATOR_TYPE_ID.
 */
export const OPERATOR_TYPE = {
  mobile: 1,
  dth: 2,
  datapack: 3,
  landline: 4,
  internet: 5,
  water: 7,
  electricity: 8,
} as const;

export const FAMILY_PREFIXES: Record<Family, readonly string[]> = {
  ncell: ["980", "981", "982", "970"],
  ntc: ["984", "985", "986", "974", "975", "976", "9040"],
};

/** NTC mobile lines by prefix (spec section 1). */
export const NTC_LINE_PREFIXES = {
  prepaid: ["984", "986", "976", "9040"],
  postpaid: ["985"],
  cdma: ["974", "975"],
} as const;

/** SmartCell was retired; its numbers are recognised only to explain that. */
export const RETIRED_PREFIXES = ["961", "988"] as const;

const INTERNET: Array<[number, string]> = [
  [19, "Subisu"],
  [20, "Worldlink"],
  [21, "Vianet"],
  [22, "Websurfer"],
  [23, "Arrownet"],
  [24, "SKY Internet"],
  [25, "PrabhuNet"],
  [26, "Palsnet"],
  [27, "Loop Network"],
  [30, "Techminds"],
  [32, "Classic Tech"],
  [47, "Chitrawan"],
  [59, "Dolfin Net"],
  [60, "Net Max"],
  [61, "Alisha Communication"],
  [63, "World Fiber Net"],
  [67, "Nijgadh Cable"],
  [70, "Prime Network"],
  [73, "PDS Server Network"],
  [74, "Meta Link"],
  [82, "DG Link"],
  [83, "Dish Home Fiber"],
  [84, "Izone"],
  [85, "ACME Internet"],
  [94, "Smart Link"],
  [96, "SKY Broadband"],
  [98, "Rapid Unique Net"],
  [99, "GRS Internet"],
  [115, "Wifi Nepal"],
];

const DTH: Array<[number, string]> = [
  [36, "Dish Home"],
  [37, "SIM TV"],
  [38, "Mero TV"],
  [39, "Sky TV"],
  [40, "Clear TV"],
  [41, "Prabhu TV"],
  [42, "Jagriti Cable"],
  [43, "Max TV"],
  [58, "Nijgadh Cable"],
  [100, "Net TV"],
  [112, "PNG Network"],
];

/**
 * India operators by key: the key names the setting's entry (INDIA_OPERATOR_IDS), the id is the
 * default, an assumption (the provider documents no India ids).
 */
export const INDIA_OPERATORS = {
  "jio-prepaid": [201, "Jio Prepaid", "prepaid"],
  "airtel-prepaid": [202, "Airtel Prepaid", "prepaid"],
  "vi-prepaid": [203, "Vi Prepaid", "prepaid"],
  "bsnl-prepaid": [204, "BSNL Prepaid", "prepaid"],
  "jio-postpaid": [211, "Jio Postpaid", "postpaid"],
  "airtel-postpaid": [212, "Airtel Postpaid", "postpaid"],
  "vi-postpaid": [213, "Vi Postpaid", "postpaid"],
  "tata-play": [221, "Tata Play", "dth"],
  "airtel-dth": [222, "Airtel Digital TV", "dth"],
  "dish-tv": [223, "Dish TV", "dth"],
  "sun-direct": [224, "Sun Direct", "dth"],
} as const satisfies Record<string, readonly [number, string, "prepaid" | "postpaid" | "dth"]>;
export type IndiaOperatorKey = keyof typeof INDIA_OPERATORS;
export const INDIA_OPERATOR_KEYS = Object.keys(INDIA_OPERATORS) as IndiaOperatorKey[];

export interface CatalogOptions {
  /** Operator id of the electricity (NEA) operator; not documented by the provider. */
  electricityOperatorId?: number;
  /** Operator type id of electricity; not documented (8 assumed). */
  electricityOperatorTypeId?: number;
  /** India operator ids by key, overriding the assumed defaults of INDIA_OPERATORS. */
  indiaOperatorIds?: Partial<Record<IndiaOperatorKey, number>>;
  /** India operator types (not documented; the Nepal samples' 1 and 2 assumed). */
  indiaMobileOperatorTypeId?: number;
  indiaDthOperatorTypeId?: number;
  /** Operator id of the khanepani (water) operator; 46 in the provider's example. */
  waterOperatorId?: number;
}

/** Nepal's mobile, data-pack and landline operators (spec section 1): fixed ids and types. */
const NEPAL_FIXED: readonly Omit<Operator, "region">[] = [
  {
    id: 5,
    name: "NTC Prepaid",
    category: "mobile",
    operatorTypeId: 1,
    flow: "amount",
    family: "ntc",
    line: "prepaid",
    amounts: "ntc_mobile",
    prefixes: "line",
  },
  {
    id: 6,
    name: "NTC Postpaid",
    category: "mobile",
    operatorTypeId: 1,
    flow: "amount",
    family: "ntc",
    line: "postpaid",
    amounts: "ntc_mobile",
    prefixes: "line",
  },
  {
    id: 14,
    name: "NTC CDMA / Fixed Wireless",
    category: "mobile",
    operatorTypeId: 1,
    flow: "amount",
    family: "ntc",
    line: "cdma",
    amounts: "ntc_mobile",
    prefixes: "line",
  },
  {
    id: 2,
    name: "Ncell Data",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ncell",
    product: "data",
    prefixes: "family",
  },
  {
    id: 3,
    name: "Ncell Voice",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ncell",
    product: "voice",
    prefixes: "family",
  },
  {
    id: 4,
    name: "Ncell SMS",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ncell",
    product: "sms",
    prefixes: "family",
  },
  {
    id: 113,
    name: "Ncell Roaming",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ncell",
    product: "roaming",
    prefixes: "family",
  },
  {
    id: 114,
    name: "Ncell Sadhain On",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ncell",
    product: "special",
    prefixes: "family",
  },
  {
    id: 8,
    name: "NTC Data",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ntc",
    product: "data",
    prefixes: "family",
  },
  {
    id: 9,
    name: "NTC Voice",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ntc",
    product: "voice",
    prefixes: "family",
  },
  {
    id: 10,
    name: "NTC Recommended",
    category: "datapack",
    operatorTypeId: 3,
    flow: "packages",
    family: "ntc",
    product: "recommended",
    prefixes: "family",
  },
  {
    id: 11,
    name: "NTC Landline",
    category: "landline",
    operatorTypeId: 4,
    flow: "amount",
    line: "landline",
    amounts: "up_to_5000",
  },
  {
    id: 17,
    name: "NTC Fibre Voice",
    category: "landline",
    operatorTypeId: 4,
    flow: "amount",
    line: "fibre_voice",
    amounts: "up_to_5000",
  },
  {
    id: 117,
    name: "NTC Toll-free",
    category: "landline",
    operatorTypeId: 4,
    flow: "amount",
    line: "toll_free",
    amounts: "up_to_5000",
  },
];

/** Every operator, with the settings' ids (electricity, water, India) applied. */
export function buildOperators(opts: CatalogOptions = {}): Operator[] {
  return [
    ...NEPAL_FIXED.map(inNepal),
    ...DTH.map(([id, name]) =>
      inNepal({
        id,
        name,
        category: "dth",
        operatorTypeId: OPERATOR_TYPE.dth,
        flow: "dth_packages",
      }),
    ),
    ...INTERNET.map(([id, name]) =>
      inNepal({
        id,
        name,
        category: "internet",
        operatorTypeId: OPERATOR_TYPE.internet,
        flow: "internet_packages",
      }),
    ),
    ...billOperators(opts),
    ...indiaOperators(opts),
  ];
}

const inNepal = (o: Omit<Operator, "region">): Operator => ({ ...o, region: "np" });

/** The water and electricity operators; their ids are settings (undocumented by the provider). */
function billOperators(opts: CatalogOptions): Operator[] {
  return [
    inNepal({
      id: opts.waterOperatorId ?? 46,
      name: "Khanepani (Water)",
      category: "water",
      operatorTypeId: 7,
      flow: "water_bill",
    }),
    inNepal({
      id: opts.electricityOperatorId ?? 118,
      name: "Nepal Electricity Authority",
      category: "electricity",
      operatorTypeId: opts.electricityOperatorTypeId ?? OPERATOR_TYPE.electricity,
      flow: "electricity_bill",
    }),
  ];
}

/** India (ids from the setting, see INDIA_OPERATORS). Operator types default to the Nepal samples'. */
function indiaOperators(opts: CatalogOptions): Operator[] {
  return INDIA_OPERATOR_KEYS.map((key): Operator => {
    const [id, name, india] = INDIA_OPERATORS[key];
    return {
      id: opts.indiaOperatorIds?.[key] ?? id,
      name,
      category: "india",
      operatorTypeId:
        india === "dth"
          ? (opts.indiaDthOperatorTypeId ?? OPERATOR_TYPE.dth)
          : (opts.indiaMobileOperatorTypeId ?? OPERATOR_TYPE.mobile),
      region: "in",
      flow: "circle",
      india,
      amounts: "up_to_5000",
    };
  });
}
