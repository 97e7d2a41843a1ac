/**
 * An order's references, one name per meaning from the chat to the wire:
 *  - `reference`: ours. Numeric, minted here (the store's counter); the order is found by it, the
 *    customer sees it, and the provider knows the order by it unless
 *  - `executeReference`: the provider's, when a lookup (a package listing) answered with another
 *    reference than the one it was made under; the execute, status query and webhook then carry it
 *    (providerReference, execute-request.ts), and the store finds the order by it too (an alias).
 * The provider client alone spells them `referenceNo` in its requests and `reference_no` /
 * `order_id` on the wire (src/provider): converted there and nowhere else.
 */

/** What mints references: the order store's counter (orders.nextReference). */
export interface ReferenceSource {
  nextReference(): Promise<string>;
}

/**
 * A fresh reference of ours, for a lookup whose order is then placed under it (a package listing,
 * a bill check: the execute must carry the reference the lookup was made under, spec 4.1). Every
 * flow mints its references here; a retried lookup takes another.
 */
export function mintReference(orders: ReferenceSource): Promise<string> {
  return orders.nextReference();
}
