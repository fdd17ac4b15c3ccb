// The API keys that own sessions (STACKBONE_API_KEYS, comma-separated); none = open dev mode.
export function configuredApiKeys(): string[] {
  return (process.env.STACKBONE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}
