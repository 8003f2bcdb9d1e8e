import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "../../env";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mayReadOutbox, outboxKey, outboxWarning, writeToOutbox } from "./mail";

// Decision 0005: who may read the demo outbox (it holds working links of every account).
const saved = { ...process.env };
function configure(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
}
afterEach(() => {
  for (const name of ["NODE_ENV", "PAYMENT_GATEWAY", "DEMO_DATA", "SMTP_URL", "OUTBOX_KEY", "DATA_DIR"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnvForTests();
});

const pageUrl = (query = "") => new URL(`http://toko.example/outbox${query}`);

describe("the demo outbox in production", () => {
  it("is closed to other machines, open to this one and to the key", () => {
    configure({
      NODE_ENV: "production",
      PAYMENT_GATEWAY: "sandbox",
      DEMO_DATA: "1",
      SMTP_URL: undefined,
      OUTBOX_KEY: "kunci-rahasia-panjang-1",
    });
    expect(mayReadOutbox(pageUrl(), false)).toBe(false);
    expect(mayReadOutbox(pageUrl("?key=tebakan"), false)).toBe(false);
    expect(mayReadOutbox(pageUrl("?key=kunci-rahasia-panjang-2"), false)).toBe(false);
    expect(mayReadOutbox(pageUrl(), true)).toBe(true);
    expect(mayReadOutbox(pageUrl(`?key=${outboxKey()}`), false)).toBe(true);
  });

  it("serves a store started for real without SMTP_URL (the key as for the demo), and does not exist with SMTP_URL", () => {
    configure({ NODE_ENV: "production", PAYMENT_GATEWAY: "sandbox", DEMO_DATA: undefined, SMTP_URL: undefined });
    expect(mayReadOutbox(pageUrl(), true)).toBe(true);
    expect(mayReadOutbox(pageUrl(), false)).toBe(false);
    expect(outboxWarning()).toContain(`/outbox?key=${outboxKey()}`);
    configure({ NODE_ENV: "production", PAYMENT_GATEWAY: "sandbox", DEMO_DATA: "1", SMTP_URL: "smtp://mail.example:587" });
    expect(mayReadOutbox(pageUrl(), true)).toBe(false);
  });

  it("is announced loudly at start: mail is not delivered, and how to fix it", () => {
    configure({ NODE_ENV: "production", PAYMENT_GATEWAY: "sandbox", DEMO_DATA: "1", SMTP_URL: undefined });
    const banner = outboxWarning().split("\n");
    expect(banner.length).toBeGreaterThanOrEqual(6);
    expect(banner.join("\n")).toMatch(/E-MAIL IS NOT DELIVERED: SMTP_URL is not set/);
    expect(banner.join("\n")).toContain(`/outbox?key=${outboxKey()}`);
    expect(banner.join("\n")).toContain("Set SMTP_URL=");
  });
});

describe("the outbox on disk (issue 25)", () => {
  it("is readable by the server's user only: files 0600 in a 0700 folder, also a folder an older version made 0755", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-mode-"));
    try {
      fs.mkdirSync(path.join(dataDir, "outbox"), { mode: 0o755 });
      fs.chmodSync(path.join(dataDir, "outbox"), 0o755);
      configure({ DATA_DIR: dataDir });
      const entry = await writeToOutbox({ to: "a@example.org", subject: "Reset", text: "https://toko.example/reset/secret", html: "" });
      expect(fs.statSync(path.join(dataDir, "outbox")).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dataDir, "outbox", `${entry.id}.json`)).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
