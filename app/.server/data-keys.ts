import crypto from "node:crypto";

// DATA_ENCRYPTION_KEY's keys (issue 35): parsed here, apart from data-crypto.ts, because env.ts
// checks the variable at start-up and data-crypto.ts reads env.ts; one file each way would be a circle.

export type DataKey = { id: string; key: Buffer };
export type Keyring = { current: DataKey; byId: ReadonlyMap<string, DataKey> };

/** The key's id: the first 4 bytes of a SHA-256 of the key (names the key, tells nothing about it). */
export function keyIdOf(key: Buffer): string {
  return crypto.createHash("sha256").update("personal-data-key-id:").update(key).digest("hex").slice(0, 8);
}

/** Parses DATA_ENCRYPTION_KEY's value; a string is the problem (for env.ts's message), never the key. */
export function parseDataKeys(value: string): Keyring | string {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (!entries.length) return "must be 32 random bytes in base64 (openssl rand -base64 32), comma-separated for rotation";
  const keys: DataKey[] = [];
  for (const [index, entry] of entries.entries()) {
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(entry) ? Buffer.from(entry, "base64") : Buffer.alloc(0);
    if (key.length !== 32)
      return `key ${index + 1} must be 32 random bytes in base64 (openssl rand -base64 32), ${key.length ? `not ${key.length} bytes` : "not base64"}`;
    keys.push({ id: keyIdOf(key), key });
  }
  return { current: keys[0]!, byId: new Map(keys.map((k) => [k.id, k])) };
}
