/**
 * Which operator and circle an Indian mobile number was first given by, from its series: the
 * Department of Telecommunications allots mobile numbers to an operator in one circle in blocks
 * named by their leading digits (the "MSC code", four digits, some blocks five). Pure data and a
 * lookup; the India flow offers the result first and always shows the full list beside it.
 *
 * Only ever a suggestion: with mobile number portability a number keeps its digits when it moves
 * to another operator (and, since 2019, to another circle), so a series says where the number
 * started, not where it is now.
 *
 * A modest table on purpose: well-known series of the operators the catalogue sells (Airtel, Vi,
 * BSNL), each circle named as the provider's circle listing names it (the sandbox's listing; the
 * flow matches the name, not an id). A number in no series here gets the plain list. Extend it
 * from the numbering plan's allotment lists when a series is missing; a longer prefix (five
 * digits) wins over a shorter one.
 */

/** The operator families the catalogue offers (INDIA_OPERATORS keys are `<brand>-<kind>`). */
type IndiaBrand = "jio" | "airtel" | "vi" | "bsnl";

export interface SeriesGuess {
  brand: IndiaBrand;
  /** The circle's name as the circle listing writes it, e.g. "Delhi NCR". */
  circle: string;
}

type Table = Readonly<Record<string, readonly [IndiaBrand, string]>>;

export const INDIA_SERIES: Table = {
  // Airtel
  "9810": ["airtel", "Delhi NCR"],
  "9818": ["airtel", "Delhi NCR"],
  "9829": ["airtel", "Rajasthan"],
  "9831": ["airtel", "Kolkata"],
  "9840": ["airtel", "Chennai"],
  "9845": ["airtel", "Karnataka"],
  "9849": ["airtel", "Andhra Pradesh"],
  "9892": ["airtel", "Mumbai"],
  // Vi (Vodafone Idea)
  "9811": ["vi", "Delhi NCR"],
  "9820": ["vi", "Mumbai"],
  "9825": ["vi", "Gujarat"],
  "9830": ["vi", "Kolkata"],
  "9884": ["vi", "Chennai"],
  "9886": ["vi", "Karnataka"],
  // BSNL: the 94 series, one block per circle
  "9412": ["bsnl", "UP West & Uttarakhand"],
  "9414": ["bsnl", "Rajasthan"],
  "9415": ["bsnl", "UP East"],
  "9416": ["bsnl", "Haryana"],
  "9417": ["bsnl", "Punjab"],
  "9418": ["bsnl", "Himachal Pradesh"],
  "9419": ["bsnl", "Jammu & Kashmir"],
  "9422": ["bsnl", "Maharashtra & Goa"],
  "9425": ["bsnl", "Madhya Pradesh & Chhattisgarh"],
  "9426": ["bsnl", "Gujarat"],
  "9431": ["bsnl", "Bihar & Jharkhand"],
  "9434": ["bsnl", "West Bengal"],
  "9435": ["bsnl", "Assam"],
  "9436": ["bsnl", "North East"],
  "9437": ["bsnl", "Odisha"],
  "9440": ["bsnl", "Andhra Pradesh"],
  "9443": ["bsnl", "Tamil Nadu"],
  "9447": ["bsnl", "Kerala"],
  "9448": ["bsnl", "Karnataka"],
};

/** The series of a 10-digit mobile number, longest prefix first (five digits, then four); null: unknown. */
export function seriesOf(number: string, table: Table = INDIA_SERIES): SeriesGuess | null {
  if (!/^[6-9]\d{9}$/.test(number)) return null;
  for (const len of [5, 4]) {
    const hit = table[number.slice(0, len)];
    if (hit) return { brand: hit[0], circle: hit[1] };
  }
  return null;
}

/** A circle's name for matching: case, spaces and "and"/"&" do not matter ("Delhi NCR" = "delhi ncr"). */
export function circleKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/\band\b/g, "&")
    .replace(/[^a-z&]/g, "");
}
