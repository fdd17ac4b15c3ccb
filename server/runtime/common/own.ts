// Lookups by a key that came from outside (an interrupt id, a retry id, a tool or state key):
// only the record's own entries count, so "__proto__", "constructor" or "toString" find nothing
// instead of something inherited from Object.prototype.

export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
