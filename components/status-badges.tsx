// Small markers the app shows about how the server runs: which model serves an agent, and
// which access mode is on — open dev mode (no API keys) or keyed mode (docs/security.md).

export function ScriptedModelBadge() {
  return (
    <span
      className="badge badge-scripted"
      data-testid="scripted-marker"
      title="No model API key is configured (or STACKBONE_MODEL=scripted): a built-in model answers by fixed rules."
    >
      Scripted model — offline, deterministic
    </span>
  );
}

export function OpenDevModeBadge() {
  return (
    <span
      className="badge badge-open-dev"
      data-testid="open-dev-marker"
      title="STACKBONE_API_KEYS is not set: every request is accepted and shares the local owner."
    >
      Open dev mode — no API keys, one local owner
    </span>
  );
}

export function KeyedModeBadge() {
  return (
    <span
      className="badge badge-keyed"
      data-testid="keyed-marker"
      title="STACKBONE_API_KEYS is set: this browser owns only the conversations it starts; the APIs and Studio need an API key."
    >
      Keyed mode — this browser sees only its own conversations
    </span>
  );
}
