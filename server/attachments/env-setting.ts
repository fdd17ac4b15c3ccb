// A number an attachment setting gives in the environment (docs/models.md, "Attachments"). This
// floor is below the runtime, so it reads its own: unset, empty, unreadable, zero or negative is no
// setting at all, and the caller's default stands (a limit of 0 would refuse everyone).

/** The positive number the variable `name` holds, or undefined. */
export function envPositive(name: string): number | undefined {
  const value = Number(process.env[name]?.trim() || NaN);
  return value > 0 ? value : undefined;
}

/** The whole positive number `name` holds, else `fallback`. */
export function envCount(name: string, fallback: number): number {
  return Math.floor(envPositive(name) ?? fallback);
}
