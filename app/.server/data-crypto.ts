import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type DataKey, type Keyring, parseDataKeys } from "./data-keys";
import { env } from "./env";

// Personal data at rest (issue 35, DESIGN §6, decision 0056): the NIK and the uploaded photos are
// encrypted by the application with AES-256-GCM under DATA_ENCRYPTION_KEY, so the database files and
// a backup hold no NIK and no KTP picture in clear. The variable is a comma-separated list of 32-byte
// keys in base64: the first encrypts, every one decrypts (rotation: put the new key first, run
// `npm run ops -- data:rotate-key`, then drop the old one). Every ciphertext names its key by an id,
// a short hash of the key, so a reader knows which key opens it without trying them all.

/** A ciphertext no key of the ring opens: an unknown key id, a wrong key, or altered bytes. */
export class DataDecryptionError extends Error {
  override name = "DataDecryptionError";
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Text ciphertexts look like `pd1.<key id>.<iv | tag | ciphertext, base64url>`; a clear NIK never does. */
const TEXT_PREFIX = "pd1.";
const TEXT_PATTERN = /^pd1\.([0-9a-f]{8})\.([A-Za-z0-9_-]+)$/;

let cachedRing: Keyring | undefined;

/**
 * The keys in force: DATA_ENCRYPTION_KEY, or (outside production, where env.ts requires the
 * variable) a key generated once and kept in DATA_DIR, as the session secret is, so a developer's
 * database stays readable across restarts.
 */
export function dataKeyring(): Keyring {
  if (cachedRing) return cachedRing;
  const e = env();
  let value = e.dataEncryptionKey;
  if (!value) {
    const file = path.join(e.dataDir, "data-encryption-key");
    try {
      value = fs.readFileSync(file, "utf8").trim();
    } catch {
      fs.mkdirSync(e.dataDir, { recursive: true });
      value = crypto.randomBytes(32).toString("base64");
      fs.writeFileSync(file, value, { mode: 0o600 });
    }
  }
  const ring = parseDataKeys(value);
  if (typeof ring === "string") throw new Error(`DATA_ENCRYPTION_KEY: ${ring}`);
  cachedRing = ring;
  return ring;
}

/** For tests that change DATA_ENCRYPTION_KEY between cases. */
export function resetDataKeyringForTests(): void {
  cachedRing = undefined;
}

function seal(plain: Uint8Array, context: string, key: DataKey): Buffer {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key.key, iv);
  // The context (what the value is and, for a file, its id) is authenticated: a ciphertext copied
  // into another column or another file's row does not open.
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(sealed: Uint8Array, context: string, keyId: string, ring: Keyring): Buffer {
  const key = ring.byId.get(keyId);
  if (!key) throw new DataDecryptionError(`no key with id ${keyId} in DATA_ENCRYPTION_KEY`);
  if (sealed.byteLength < IV_BYTES + TAG_BYTES) throw new DataDecryptionError("ciphertext too short");
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key.key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DataDecryptionError(`ciphertext does not open with key ${keyId}`);
  }
}

/** A text value (the NIK) as a `pd1.` ciphertext under the current key. */
export function encryptText(plain: string, context: string, ring = dataKeyring()): string {
  return `${TEXT_PREFIX}${ring.current.id}.${seal(Buffer.from(plain, "utf8"), context, ring.current).toString("base64url")}`;
}

export function isEncryptedText(value: string): boolean {
  return TEXT_PATTERN.test(value);
}

/** The key id a text ciphertext was made with; null for a clear value (a row older than encryption). */
export function textKeyId(value: string): string | null {
  return TEXT_PATTERN.exec(value)?.[1] ?? null;
}

/** The clear text of a `pd1.` ciphertext; a clear value (not yet encrypted) is returned as it is. */
export function decryptText(value: string, context: string, ring = dataKeyring()): string {
  const match = TEXT_PATTERN.exec(value);
  if (!match) {
    if (value.startsWith(TEXT_PREFIX)) throw new DataDecryptionError("malformed ciphertext");
    return value;
  }
  return open(Buffer.from(match[2]!, "base64url"), context, match[1]!, ring).toString("utf8");
}

/** A file's bytes sealed under the current key, with that key's id (kept in its own column). */
export function encryptBytes(plain: Uint8Array, context: string, ring = dataKeyring()): { keyId: string; bytes: Buffer } {
  return { keyId: ring.current.id, bytes: seal(plain, context, ring.current) };
}

/** A file's clear bytes: `keyId` null means the row was stored before encryption (returned as it is). */
export function decryptBytes(bytes: Uint8Array, keyId: string | null, context: string, ring = dataKeyring()): Uint8Array {
  if (keyId === null) return bytes;
  const plain = open(bytes, context, keyId, ring);
  return new Uint8Array(plain.buffer, plain.byteOffset, plain.byteLength);
}

/** HMAC-SHA256 in hex: the keyed hash equality checks use instead of the clear value. */
export function keyedHash(hashKey: Buffer, value: string): string {
  return crypto.createHmac("sha256", hashKey).update(value, "utf8").digest("hex");
}
