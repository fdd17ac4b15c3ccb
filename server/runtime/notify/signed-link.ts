// A signed link's token as the runtime reads it (docs/approvals.md, "Notifications and one-click
// links"): the token itself is server/credentials/link-token.ts; here its problems become refusals.
import { readLinkToken, type LinkClaims } from '../../credentials/link-token';
import { Refusal } from '../errors';

/**
 * The claims of a token whose signature holds (under the current or a previous secret) and whose
 * time has not run out. Throws `link_invalid` for anything malformed or signed with another key,
 * `link_expired` past its expiry. Whether it still fits its interrupt is decide-by-link.ts's.
 */
export function verifyLink(token: string, now: Date = new Date()): LinkClaims {
  const read = readLinkToken(token, now);
  if (read.problem === 'invalid') {
    throw new Refusal('link_invalid', 'This link is not valid: it may be incomplete (copy the whole link) or was not made by this server.');
  }
  if (read.problem === 'expired') {
    throw new Refusal(
      'link_expired',
      `This link expired on ${new Date(read.claims.expiresAt * 1000).toUTCString()}. Open the request in Studio to decide it.`,
      {
        interruptId: read.claims.interruptId,
      },
    );
  }
  return read.claims;
}
