'use client';
// Keyed mode (STACKBONE_API_KEYS set): Studio decides for an API key's sessions, so it asks for
// the key once; the tab keeps it until it closes (docs/studio.md).
import { useState } from 'react';
import { setStudioKey } from './studio-api';

export function StudioKeyForm({ onKey }: { onKey: () => void }) {
  const [key, setKey] = useState('');
  return (
    <form
      className="studio-key-form"
      data-testid="studio-key-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!key.trim()) return;
        setStudioKey(key.trim());
        onKey();
      }}
    >
      <p>This server is in keyed mode: Studio shows and decides the sessions of an API key.</p>
      <label className="schema-field">
        <span className="schema-label">API key</span>
        <input type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} data-testid="studio-key-input" />
      </label>
      <button type="submit" className="button button-primary" disabled={!key.trim()}>
        Open Studio
      </button>
    </form>
  );
}
