// Open dev mode (docs/security.md, "Modes"): no STACKBONE_API_KEYS, and every request is the one
// local owner. A fact of configuration, not of HTTP: the runtime reads it too, for trusted
// server code that names no owner (docs/turn-control.md, "Server append"), so it sits below
// both server/runtime and server/http.

export const LOCAL_OWNER = 'local';

/** The API keys that own sessions (STACKBONE_API_KEYS, comma-separated); none = open dev mode. */
export function configuredApiKeys(): string[] {
  return (process.env.STACKBONE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}

export function isOpenDevMode(): boolean {
  return configuredApiKeys().length === 0;
}
