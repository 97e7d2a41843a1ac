/**
 * A fixture object whose parts start in beforeAll: `parts` is filled in then, and reading a part
 * that is still missing throws (a test reading the fixture at collection time fails loudly rather
 * than with "cannot read properties of undefined").
 */
export function lateParts<T extends object>(fixture: string, parts: Partial<T>): T {
  return new Proxy(parts, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (value === undefined && typeof key === "string") {
        throw new Error(`the ${fixture}'s ${key} is read before beforeAll started it`);
      }
      return value;
    },
  }) as T;
}
