// A number a setting gives in the environment (STACKBONE_*): a limit, a count, milliseconds.
// Unset, empty, unreadable or negative is no setting at all: the caller's default stands.

/** The non-negative number the variable `name` holds, or undefined. */
export function envNumber(name: string): number | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  return Number.isNaN(value) || value < 0 ? undefined : value;
}
