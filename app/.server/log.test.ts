import { describe, expect, it } from "vitest";
import { createLogger, requestIdOf, runWithRequest } from "./log";

function capture() {
  const lines: string[] = [];
  const logger = createLogger({ level: "info", pretty: false }, { write: (line: string) => void lines.push(line) });
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the logger", () => {
  it("writes one JSON object per line with time, level and the request's id while a request is served", () => {
    const { logger, parsed } = capture();
    logger.info("outside");
    runWithRequest({ reqId: "abc123" }, () => logger.warn({ orderId: 7 }, "inside"));
    const [outside, inside] = parsed();
    expect(outside).toMatchObject({ level: "info", msg: "outside" });
    expect(outside).not.toHaveProperty("reqId");
    expect(inside).toMatchObject({ level: "warn", msg: "inside", reqId: "abc123", orderId: 7 });
    expect(new Date(String(inside!.time)).getTime()).toBeGreaterThan(0);
  });

  it("never writes passwords, session ids, cookies, OTP codes, NIKs, proof bytes or links with secrets", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: "Demo12345!",
        sid: "session-id-value",
        cookie: "__session=abc",
        otp: "4821",
        nik: "3273010101900001",
        proof: Buffer.from("JPEG bytes"),
        form: { password: "Demo12345!", nik: "3273010101900001", token: "reset-token-value" },
        link: "https://toko.example/verify-account?token=activation-secret",
      },
      "a careless call",
    );
    const text = lines.join("");
    for (const secret of [
      "Demo12345!",
      "session-id-value",
      "__session=abc",
      "4821",
      "3273010101900001",
      "JPEG",
      "reset-token-value",
      "activation-secret",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain("[redacted]");
  });

  it("writes readable lines in development", () => {
    const lines: string[] = [];
    const out = { write: (line: string) => void lines.push(line) } as unknown as NodeJS.WritableStream;
    // The development format wraps the JSON destination; feed it through a capture of stdout.
    const write = process.stdout.write;
    process.stdout.write = out.write as typeof process.stdout.write;
    try {
      const logger = createLogger({ level: "info", pretty: true });
      runWithRequest({ reqId: "r1" }, () => logger.info({ status: 200 }, "request"));
    } finally {
      process.stdout.write = write;
    }
    expect(lines.join("")).toMatch(/^\d{2}:\d{2}:\d{2} INFO {2}\[r1\] request status=200\n$/);
  });
});

describe("the request id", () => {
  it("is generated when no proxy is trusted, whatever the client sends", () => {
    const id = requestIdOf("client-chosen-id", 0);
    expect(id).not.toBe("client-chosen-id");
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(requestIdOf(undefined, 0)).not.toBe(requestIdOf(undefined, 0));
  });

  it("is the trusted proxy's X-Request-Id, not a value the client put in front of it", () => {
    expect(requestIdOf("proxy-id-1", 1)).toBe("proxy-id-1");
    // A proxy that appends: the client's own entry comes first and is not believed.
    expect(requestIdOf("client-id, proxy-id-2", 1)).toBe("proxy-id-2");
    expect(requestIdOf(["client-id", "proxy-id-3"], 1)).toBe("proxy-id-3");
    // Two proxies that append: the outermost trusted one's entry.
    expect(requestIdOf("client-id, outer-proxy, inner-proxy", 2)).toBe("outer-proxy");
  });

  it("is generated when the trusted value is not a plain id (no log injection)", () => {
    expect(requestIdOf('bad"\nid', 1)).toMatch(/^[0-9a-f]{16}$/);
    expect(requestIdOf("x".repeat(200), 1)).toMatch(/^[0-9a-f]{16}$/);
  });
});
