/**
 * The aggregator's operators as data (spec section 1, provider-notes "Operator names by id").
 * India operator ids and the electricity operator are not documented: the India ids below are this
 * project's sandbox assumption (the India operator lookup corrects them), electricity is configurable.
 */

export type Region = "np" | "in";

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

/** What a conversation must collect before execute. */
export type Flow =
  | "amount" // number + amount (mobile, landline)
  | "packages" // data-pack listing
  | "dth_packages" // DTH listing (object with customer info)
  | "internet_packages" // multistep internet group
  | "water_bill" // office code + month + bill check
  | "electricity_bill" // office code + SC no + bill check
  | "circle"; // India: circle + number + amount or plan

/** Mobile operator families by prefix: A = Ncell, B = Nepal Telecom (NTC). */
export type Family = "ncell" | "ntc";

export type Product = "data" | "voice" | "sms" | "roaming" | "special" | "recommended";

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
}

/** Operator type ids from the request samples; 8 for electricity is an assumption (not documented). */
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

export interface CatalogOptions {
  /** Operator id of the electricity (NEA) operator; not documented by the provider. */
  electricityOperatorId?: number;
  /** Operator id of the khanepani (water) operator; 46 in the provider's example. */
  waterOperatorId?: number;
}

export function buildOperators(opts: CatalogOptions = {}): Operator[] {
  const np = (o: Omit<Operator, "region">): Operator => ({ ...o, region: "np" });
  const ops: Operator[] = [
    np({
      id: 5,
      name: "NTC Prepaid",
      category: "mobile",
      operatorTypeId: 1,
      flow: "amount",
      family: "ntc",
      line: "prepaid",
    }),
    np({
      id: 6,
      name: "NTC Postpaid",
      category: "mobile",
      operatorTypeId: 1,
      flow: "amount",
      family: "ntc",
      line: "postpaid",
    }),
    np({
      id: 14,
      name: "NTC CDMA / Fixed Wireless",
      category: "mobile",
      operatorTypeId: 1,
      flow: "amount",
      family: "ntc",
      line: "cdma",
    }),
    np({
      id: 2,
      name: "Ncell Data",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ncell",
      product: "data",
    }),
    np({
      id: 3,
      name: "Ncell Voice",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ncell",
      product: "voice",
    }),
    np({
      id: 4,
      name: "Ncell SMS",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ncell",
      product: "sms",
    }),
    np({
      id: 113,
      name: "Ncell Roaming",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ncell",
      product: "roaming",
    }),
    np({
      id: 114,
      name: "Ncell Sadhain On",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ncell",
      product: "special",
    }),
    np({
      id: 8,
      name: "NTC Data",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ntc",
      product: "data",
    }),
    np({
      id: 9,
      name: "NTC Voice",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ntc",
      product: "voice",
    }),
    np({
      id: 10,
      name: "NTC Recommended",
      category: "datapack",
      operatorTypeId: 3,
      flow: "packages",
      family: "ntc",
      product: "recommended",
    }),
    np({
      id: 11,
      name: "NTC Landline",
      category: "landline",
      operatorTypeId: 4,
      flow: "amount",
      line: "landline",
    }),
    np({
      id: 17,
      name: "NTC Fibre Voice",
      category: "landline",
      operatorTypeId: 4,
      flow: "amount",
      line: "fibre_voice",
    }),
    np({
      id: 117,
      name: "NTC Toll-free",
      category: "landline",
      operatorTypeId: 4,
      flow: "amount",
      line: "toll_free",
    }),
    ...DTH.map(([id, name]) =>
      np({ id, name, category: "dth", operatorTypeId: OPERATOR_TYPE.dth, flow: "dth_packages" }),
    ),
    ...INTERNET.map(([id, name]) =>
      np({
        id,
        name,
        category: "internet",
        operatorTypeId: OPERATOR_TYPE.internet,
        flow: "internet_packages",
      }),
    ),
    np({
      id: opts.waterOperatorId ?? 46,
      name: "Khanepani (Water)",
      category: "water",
      operatorTypeId: 7,
      flow: "water_bill",
    }),
    np({
      id: opts.electricityOperatorId ?? 118,
      name: "Nepal Electricity Authority",
      category: "electricity",
      operatorTypeId: OPERATOR_TYPE.electricity,
      flow: "electricity_bill",
    }),
    // India (sandbox assumption, see file comment). Operator type ids follow the Nepal samples.
    ...(
      [
        [201, "Jio Prepaid", "prepaid"],
        [202, "Airtel Prepaid", "prepaid"],
        [203, "Vi Prepaid", "prepaid"],
        [204, "BSNL Prepaid", "prepaid"],
        [211, "Jio Postpaid", "postpaid"],
        [212, "Airtel Postpaid", "postpaid"],
        [213, "Vi Postpaid", "postpaid"],
        [221, "Tata Play", "dth"],
        [222, "Airtel Digital TV", "dth"],
        [223, "Dish TV", "dth"],
        [224, "Sun Direct", "dth"],
      ] as const
    ).map(
      ([id, name, india]): Operator => ({
        id,
        name,
        category: "india",
        operatorTypeId: india === "dth" ? OPERATOR_TYPE.dth : OPERATOR_TYPE.mobile,
        region: "in",
        flow: "circle",
        india,
      }),
    ),
  ];
  return ops;
}
