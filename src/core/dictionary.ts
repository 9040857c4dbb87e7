/**
 * Lookup tables indexed with text from a request (a label, a shape name, an icon query). A plain object literal
 * answers `constructor`, `toString` or `__proto__` with JavaScript's built-ins; these answer them with nothing.
 */

/** `entries` as a table without a prototype: only its own keys are in it. */
export function dictionary<T extends object>(entries: T): T {
  return Object.assign(Object.create(null) as T, entries);
}

/** `table[key]` when `key` is the table's own (for tables we do not build: a library's data, parsed JSON). */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
