// Where this app is reached from outside its process (docs/approvals.md, "Notifications and
// one-click links"; docs/mcp.md): the origin of the links a notification carries and of the
// requests the app makes to itself. A fact of configuration, below the runtime and the agents.
import { setting } from './index';

/**
 * STACKBONE_PUBLIC_URL when set (behind a proxy, or a Vercel deployment whose protection stops
 * its own requests), else the deployment's own URL on Vercel, else the port this process listens
 * on (`next start`/`next dev` set PORT). Asked each time, so a detached run or a recovery on
 * another instance finds it too.
 */
export function ownOrigin(): string {
  const configured = setting('STACKBONE_PUBLIC_URL');
  if (configured) return configured.replace(/\/+$/, '');
  const vercelUrl = setting('VERCEL_URL');
  if (vercelUrl) return `https://${vercelUrl}`;
  return `http://127.0.0.1:${setting('PORT')}`;
}
