// Keyed mode (STACKBONE_API_KEYS set): Studio shows and decides an API key's sessions, and the
// approvals kept for key holders, so it asks this browser to sign in with a key once
// (docs/studio.md, docs/security.md).
import { SignInForm } from '../sign-in-form';

export function StudioKeyForm() {
  return (
    <div className="studio-key-form" data-testid="studio-key-form">
      <p>This server is in keyed mode: sign in with an API key to see and decide its sessions, and the approvals kept for key holders.</p>
      <SignInForm next="/studio" />
    </div>
  );
}
