/**
 * The merchant's margin on one order (issue 15): what the customer paid, less what the aggregator
 * debited the merchant's wallet, plus the commission the aggregator reports. Negative when the
 * merchant sold below cost. Integer paisa in and out.
 */
export function margin(order: {
  pricePaidPaisa: number;
  providerDebitPaisa: number;
  commissionPaisa: number;
}): number {
  const { pricePaidPaisa, providerDebitPaisa, commissionPaisa } = order;
  for (const v of [pricePaidPaisa, providerDebitPaisa, commissionPaisa])
    if (!Number.isSafeInteger(v)) throw new RangeError("margin takes integer paisa");
  const m = pricePaidPaisa - providerDebitPaisa + commissionPaisa;
  if (!Number.isSafeInteger(m)) throw new RangeError("margin exceeds a safe integer");
  return m;
}
