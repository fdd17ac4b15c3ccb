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

/** Keyed mode, and who this browser is: a key holder, its own random identity, or nobody yet. */
export function KeyedModeBadge({ webAccess, signedInWithKey }: { webAccess: 'open' | 'key'; signedInWithKey: boolean }) {
  const access = webAccess === 'key' ? 'the app needs an API key' : 'open to browsers';
  const who = signedInWithKey ? 'signed in with a key' : webAccess === 'open' ? 'this browser sees only its own conversations' : 'not signed in';
  return (
    <span
      className="badge badge-keyed"
      data-testid="keyed-marker"
      data-web-access={webAccess}
      title={
        webAccess === 'key'
          ? 'STACKBONE_API_KEYS is set and STACKBONE_WEB_ACCESS=key: a browser uses the app after entering an API key, and then acts as that key.'
          : 'STACKBONE_API_KEYS is set and STACKBONE_WEB_ACCESS=open: every browser owns only the conversations it starts; the APIs and Studio need an API key, and approvals kept for key holders need one too.'
      }
    >
      Keyed mode, {access} — {who}
    </span>
  );
}
