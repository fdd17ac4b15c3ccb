// `stackbone receipt verify` and `receipt key` (docs/approvals.md, "Signed receipts"). The verifier
// is what anyone outside the server would write from the format docs/approvals.md gives — a
// compact JWS (EdDSA) checked against a JWKS, and the SHA-256 of the RFC 8785 canonical JSON of
// the arguments — with the same libraries (jose, canonicalize); it needs no server once it has
// the key set (a saved /.well-known/jwks.json).
import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import canonicalize from 'canonicalize';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';

const RECEIPT_TYPE = 'stackbone-receipt+jws';
const JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Text from a file, or from stdin for "-". */
export async function readSource(source) {
  if (source !== '-') return readFile(source, 'utf8');
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

/**
 * The receipts in a text: one or more compact JWSs (a line each), the receipts endpoint's
 * `{receipts: […]}`, or the decision export (lines with `receipt` and `votes[].receipt`).
 * @param {string} text
 * @returns {string[]}
 */
export function receiptsIn(text) {
  const found = [];
  const visit = (value) => {
    if (typeof value === 'string') {
      if (JWS.test(value.trim())) found.push(value.trim());
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  for (const line of text
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)) {
    if (JWS.test(line)) found.push(line);
    else {
      try {
        visit(JSON.parse(line));
      } catch {
        // not a JSON line: the whole text may be one JSON document
      }
    }
  }
  if (found.length === 0) {
    try {
      visit(JSON.parse(text));
    } catch {
      // nothing readable
    }
  }
  return [...new Set(found)];
}

/** A key set from a URL (fetched) or a file (read: offline). */
export async function loadKeySet(where) {
  const text = /^https?:\/\//.test(where) ? await fetchText(where) : await readFile(where, 'utf8');
  const keySet = JSON.parse(text);
  if (!Array.isArray(keySet?.keys)) throw new Error(`${where} is not a JWKS (no "keys" array).`);
  return keySet;
}

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}.`);
  return response.text();
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of `args`. */
function argsDigest(args) {
  return createHash('sha256')
    .update(canonicalize(args ?? null))
    .digest('hex');
}

/**
 * One receipt checked: its type, its signature against the key set, and (given) the arguments.
 * @returns {Promise<{ ok: boolean, problem?: string, claims?: Record<string, unknown>, kid?: string }>}
 */
export async function verifyOne(token, keySet, args) {
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return { ok: false, problem: 'not a compact JWS' };
  }
  if (header.typ !== RECEIPT_TYPE) return { ok: false, problem: `not a receipt (typ ${JSON.stringify(header.typ)})` };
  try {
    const { payload } = await compactVerify(token, createLocalJWKSet(keySet), { algorithms: ['EdDSA'] });
    const claims = JSON.parse(new TextDecoder().decode(payload));
    if (args !== undefined && argsDigest(args) !== claims.argsDigest)
      return { ok: false, problem: 'the arguments given are not the ones the receipt approved (their digest differs)', claims, kid: header.kid };
    return { ok: true, claims, kid: header.kid };
  } catch (error) {
    const code = error?.code;
    const problem =
      code === 'ERR_JWKS_NO_MATCHING_KEY'
        ? `signed by a key the key set does not list (kid ${header.kid ?? 'none'})`
        : code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
          ? 'the signature does not match: the receipt was changed after it was signed'
          : `unreadable: ${error?.message ?? error}`;
    return { ok: false, problem, kid: header.kid };
  }
}

/** The claims, a line each, in the order the format lists them. */
export function formatClaims(result) {
  const { claims } = result;
  const head = result.ok ? `✓ valid receipt (key ${result.kid})` : `✗ not valid: ${result.problem}`;
  if (!claims) return `${head}\n`;
  const lines = Object.entries(claims).map(([name, value]) => `  ${name.padEnd(19)} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${head}\n${lines.join('\n')}\n`;
}

/** A new Ed25519 private JWK, one line: the value of STACKBONE_RECEIPT_KEY. */
export function newKey() {
  return JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }));
}
