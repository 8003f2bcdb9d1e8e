import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { DataDecryptionError, decryptBytes, decryptText, encryptBytes, encryptText, keyedHash } from "./data-crypto";
import { keyIdOf, type Keyring, parseDataKeys } from "./data-keys";

// Issue 35: the NIK and the photos at rest under AES-256-GCM with key ids (rotation), and the keyed hash.

const newKey = () => crypto.randomBytes(32).toString("base64");
function ring(value: string): Keyring {
  const parsed = parseDataKeys(value);
  if (typeof parsed === "string") throw new Error(parsed);
  return parsed;
}

describe("DATA_ENCRYPTION_KEY", () => {
  it("takes comma-separated 32-byte base64 keys: the first encrypts, all are known by id", () => {
    const [a, b] = [newKey(), newKey()];
    const keys = ring(`${a}, ${b}`);
    expect(keys.current.id).toBe(keyIdOf(Buffer.from(a, "base64")));
    expect([...keys.byId.keys()]).toEqual([keyIdOf(Buffer.from(a, "base64")), keyIdOf(Buffer.from(b, "base64"))]);
  });

  it("refuses keys of the wrong length or not in base64, without repeating them", () => {
    const short = crypto.randomBytes(16).toString("base64");
    const problem = parseDataKeys(`${newKey()},${short}`);
    expect(problem).toMatch(/^key 2 must be 32 random bytes in base64/);
    expect(problem).not.toContain(short);
    expect(parseDataKeys("not a key!")).toMatch(/not base64/);
    expect(parseDataKeys("")).toMatch(/must be 32 random bytes/);
  });
});

describe("text (the NIK)", () => {
  const keys = ring(newKey());

  it("round-trips, never shows the clear value, and differs every time", () => {
    const nik = "3171012345670001";
    const sealed = encryptText(nik, "nik", keys);
    expect(sealed).toMatch(new RegExp(`^pd1\\.${keys.current.id}\\.`));
    expect(sealed).not.toContain(nik);
    expect(encryptText(nik, "nik", keys)).not.toBe(sealed);
    expect(decryptText(sealed, "nik", keys)).toBe(nik);
  });

  it("opens with an older key still in the list after rotation, and not once it is removed", () => {
    const [oldKey, newer] = [newKey(), newKey()];
    const sealedUnderOld = encryptText("3171012345670001", "nik", ring(oldKey));
    const rotated = ring(`${newer},${oldKey}`);
    expect(decryptText(sealedUnderOld, "nik", rotated)).toBe("3171012345670001");
    const resealed = encryptText(decryptText(sealedUnderOld, "nik", rotated), "nik", rotated);
    expect(resealed.split(".")[1]).toBe(rotated.current.id);
    expect(() => decryptText(sealedUnderOld, "nik", ring(newer))).toThrow(DataDecryptionError);
    expect(decryptText(resealed, "nik", ring(newer))).toBe("3171012345670001");
  });

  it("fails under a wrong key with the same id, when altered, or in another context", () => {
    const sealed = encryptText("3171012345670001", "nik", keys);
    const [, id, body] = sealed.split(".");
    const impostor: Keyring = {
      current: { id: id!, key: crypto.randomBytes(32) },
      byId: new Map([[id!, { id: id!, key: crypto.randomBytes(32) }]]),
    };
    expect(() => decryptText(sealed, "nik", impostor)).toThrow(DataDecryptionError);
    const bytes = Buffer.from(body!, "base64url");
    bytes[bytes.length - 1]! ^= 1;
    expect(() => decryptText(`pd1.${id}.${bytes.toString("base64url")}`, "nik", keys)).toThrow(DataDecryptionError);
    expect(() => decryptText(sealed, "upload:x", keys)).toThrow(DataDecryptionError);
  });

  it("returns a value stored before encryption as it is", () => {
    expect(decryptText("3171012345670001", "nik", keys)).toBe("3171012345670001");
  });
});

describe("bytes (the photos)", () => {
  const keys = ring(newKey());
  const photo = crypto.randomBytes(5000);

  it("round-trips with the key id beside the bytes, bound to the file's id", () => {
    const sealed = encryptBytes(photo, "upload:a", keys);
    expect(sealed.keyId).toBe(keys.current.id);
    expect(sealed.bytes.includes(photo.subarray(0, 64))).toBe(false);
    expect(Buffer.from(decryptBytes(sealed.bytes, sealed.keyId, "upload:a", keys)).equals(photo)).toBe(true);
    expect(() => decryptBytes(sealed.bytes, sealed.keyId, "upload:b", keys)).toThrow(DataDecryptionError);
  });

  it("fails when a byte is changed or the key is unknown", () => {
    const sealed = encryptBytes(photo, "upload:a", keys);
    const tampered = Buffer.from(sealed.bytes);
    tampered[100]! ^= 0xff;
    expect(() => decryptBytes(tampered, sealed.keyId, "upload:a", keys)).toThrow(DataDecryptionError);
    expect(() => decryptBytes(sealed.bytes, "00000000", "upload:a", keys)).toThrow(/no key with id/);
  });
});

describe("keyed hash", () => {
  it("is stable for one key, differs between keys, and is not the plain SHA-256 of the NIK", () => {
    const [k1, k2] = [crypto.randomBytes(32), crypto.randomBytes(32)];
    const nik = "3171012345670001";
    expect(keyedHash(k1, nik)).toBe(keyedHash(k1, nik));
    expect(keyedHash(k1, nik)).not.toBe(keyedHash(k2, nik));
    expect(keyedHash(k1, nik)).not.toBe(crypto.createHash("sha256").update(nik).digest("hex"));
    expect(keyedHash(k1, nik)).toMatch(/^[0-9a-f]{64}$/);
  });
});
