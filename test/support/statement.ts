/** "-12.50" → -1250: a CSV money cell back to paisa, exactly (no floating point). */
export function paisaOfDecimal(text: string): number {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(text);
  if (!m) throw new Error(`not a money cell: ${text}`);
  const paisa = Number(m[2]) * 100 + Number(m[3]);
  return m[1] ? -paisa : paisa;
}
