// Small markers the app shows about how the server runs: which model serves an agent, and
// whether the server is in open dev mode (no API keys configured).

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
