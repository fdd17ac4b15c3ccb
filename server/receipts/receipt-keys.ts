// The keys approval receipts are signed with (docs/approvals.md, "Signed receipts"). Ed25519
// (JWS `EdDSA`), one signing key and every key still listed for verifiers:
// - STACKBONE_RECEIPT_KEY, a private JWK, when the key is kept apart from the other secrets;
// - else a key derived from STACKBONE_SECRET (HKDF), so a server that signs links signs receipts
//   with nothing more to configure — and STACKBONE_SECRET_PREVIOUS's keys stay listed during a
//   rotation, as its links keep working;
// - else (open dev mode without a secret, not through `npm run dev`, which writes one into .env)
//   a key for this process alone, said once in the log: its receipts stop verifying when it exits.
// STACKBONE_RECEIPT_KEY_PREVIOUS lists retired keys (JWKs, public parts kept) for the JWKS.
import { createPrivateKey, generateKeyPairSync, hkdfSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { setting } from '../config';

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

export interface ReceiptKeys {
  signing: SigningKey;
  /** Public JWKs, the signing key's first, each with its `kid`, `alg` and `use`. */
  published: JWK[];
  /** The signing key is this process's own (nothing configured): receipts of earlier processes cannot be verified here. */
  ephemeral: boolean;
}

/** DER of a PKCS #8 Ed25519 private key (RFC 8410) before its 32-byte seed: how Node takes a seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function keyFromSeed(seed: ArrayBuffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' });
}

function derivedKey(secret: string): KeyObject {
  return keyFromSeed(hkdfSync('sha256', secret, 'stackbone', 'approval receipt signing key v1', 32));
}

/** A JWK's public part, or a refusal that says what is wrong with the setting. */
function publicPart(jwk: unknown, from: string): JWK {
  const { kty, crv, x } = (jwk ?? {}) as JWK;
  if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string')
    throw new Error(`${from} is not an Ed25519 JWK ({"kty":"OKP","crv":"Ed25519","x":…}); make one with \`npx stackbone receipt key\`.`);
  return { kty, crv, x };
}

async function listed(publicJwk: JWK): Promise<JWK> {
  return { ...publicJwk, kid: await calculateJwkThumbprint(publicJwk), alg: 'EdDSA', use: 'sig' };
}

function jwkOf(key: KeyObject): JWK {
  return key.export({ format: 'jwk' }) as JWK;
}

function parseJson(text: string, from: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${from} is not JSON: give the JWK as one line of JSON (\`npx stackbone receipt key\` prints one).`);
  }
}

/** The configured private key, or a derived one, or null when there is nothing to make one from. */
function configuredSigningKey(): KeyObject | null {
  const explicit = setting('STACKBONE_RECEIPT_KEY');
  if (explicit) {
    const jwk = parseJson(explicit, 'STACKBONE_RECEIPT_KEY') as JWK;
    publicPart(jwk, 'STACKBONE_RECEIPT_KEY');
    if (typeof jwk.d !== 'string') throw new Error('STACKBONE_RECEIPT_KEY has no private part ("d"): it signs, so it is the private JWK.');
    return createPrivateKey({ key: { ...jwk }, format: 'jwk' });
  }
  const secret = setting('STACKBONE_SECRET');
  return secret ? derivedKey(secret) : null;
}

/** Retired keys still listed: STACKBONE_RECEIPT_KEY_PREVIOUS's JWKs and STACKBONE_SECRET_PREVIOUS's derived keys. */
function previousKeys(): JWK[] {
  const previous: JWK[] = [];
  const retired = setting('STACKBONE_RECEIPT_KEY_PREVIOUS');
  if (retired) {
    const parsed = parseJson(retired, 'STACKBONE_RECEIPT_KEY_PREVIOUS');
    for (const jwk of Array.isArray(parsed) ? parsed : [parsed]) previous.push(publicPart(jwk, 'STACKBONE_RECEIPT_KEY_PREVIOUS'));
  }
  if (!setting('STACKBONE_RECEIPT_KEY')) {
    for (const secret of (setting('STACKBONE_SECRET_PREVIOUS') ?? '').split(',').map((part) => part.trim())) {
      if (secret) previous.push(publicPart(jwkOf(derivedKey(secret)), 'STACKBONE_SECRET_PREVIOUS'));
    }
  }
  return previous;
}

/** On globalThis: each route's bundle has its own copy of this module, and the process one key. */
const shared = globalThis as typeof globalThis & {
  __stackboneProcessReceiptKey?: KeyObject;
  __stackboneReceiptKeys?: { said: string; keys: Promise<ReceiptKeys> };
};

function processKey(): KeyObject {
  if (!shared.__stackboneProcessReceiptKey) {
    shared.__stackboneProcessReceiptKey = generateKeyPairSync('ed25519').privateKey;
    console.warn(
      '[stackbone] approval receipts are signed with a key made for this process (no STACKBONE_RECEIPT_KEY or STACKBONE_SECRET): they stop verifying when it exits. `npm run dev` writes a STACKBONE_SECRET into .env (docs/approvals.md, "Signed receipts").',
    );
  }
  return shared.__stackboneProcessReceiptKey;
}

/** The keys as the settings say now (read at each call, as every setting is; worked out once per settings). */
export async function receiptKeys(): Promise<ReceiptKeys> {
  const settings = ['STACKBONE_RECEIPT_KEY', 'STACKBONE_RECEIPT_KEY_PREVIOUS', 'STACKBONE_SECRET', 'STACKBONE_SECRET_PREVIOUS'] as const;
  const said = settings.map((name) => setting(name) ?? '').join('\n');
  if (shared.__stackboneReceiptKeys?.said !== said) shared.__stackboneReceiptKeys = { said, keys: workOutKeys() };
  return shared.__stackboneReceiptKeys.keys;
}

async function workOutKeys(): Promise<ReceiptKeys> {
  const configured = configuredSigningKey();
  const privateKey = configured ?? processKey();
  const signingJwk = await listed(publicPart(jwkOf(privateKey), 'the signing key'));
  const others = await Promise.all(previousKeys().map(listed));
  const published = [signingJwk, ...others.filter((jwk) => jwk.kid !== signingJwk.kid)];
  return { signing: { kid: signingJwk.kid!, privateKey }, published, ephemeral: configured === null };
}

/** A new private JWK for STACKBONE_RECEIPT_KEY (`npx stackbone receipt key`). */
export function newReceiptKey(): JWK {
  return jwkOf(generateKeyPairSync('ed25519').privateKey);
}

/** Throws the start-up error of a receipt key setting that cannot be read (server/identity/start-checks.ts). */
export function checkReceiptKeys(): void {
  configuredSigningKey();
  previousKeys();
}
