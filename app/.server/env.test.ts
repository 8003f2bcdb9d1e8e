import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, env, resetEnvForTests, sandboxPaysForFree } from "./env";
import { contentSecurityPolicy } from "./http/request";
import { gatewayFormActionOrigins, getGateway } from "./gateway";

// PAYMENT_GATEWAY=midtrans (issue 18): validated at start like every setting, and the server key
// never appears in a message.

const KEYS = [
  "NODE_ENV",
  "TRUST_PROXY",
  "PAYMENT_GATEWAY",
  "MIDTRANS_SERVER_KEY",
  "MIDTRANS_ENV",
  "MIDTRANS_API_URL",
  "MIDTRANS_SNAP_URL",
  "DEMO_DATA",
] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));

function configure(values: Partial<Record<(typeof KEYS)[number], string>>) {
  for (const key of KEYS) delete process.env[key];
  Object.assign(process.env, values);
  resetEnvForTests();
}

afterEach(() => {
  for (const key of KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetEnvForTests();
});

describe("PAYMENT_GATEWAY in production (issue 25)", () => {
  it("has no default: without it the server refuses to start, saying in one line what to set", () => {
    configure({ NODE_ENV: "production" });
    expect(() => env()).toThrow(ConfigurationError);
    expect(() => env()).toThrow(
      /^Invalid configuration: PAYMENT_GATEWAY: must be set in production: midtrans, or sandbox for a demo or a test/,
    );
    const message = (() => {
      try {
        env();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).not.toContain("\n");
  });

  it("takes the sandbox when named, and stays the default outside production", () => {
    configure({ NODE_ENV: "production", PAYMENT_GATEWAY: "sandbox" });
    expect(env().paymentGateway).toBe("sandbox");
    configure({ NODE_ENV: "development" });
    expect(env().paymentGateway).toBe("sandbox");
    configure({ NODE_ENV: "test" });
    expect(env().paymentGateway).toBe("sandbox");
  });

  it("marks a real store on the sandbox (production, no demo data), and only that", () => {
    configure({ NODE_ENV: "production", PAYMENT_GATEWAY: "sandbox" });
    expect(sandboxPaysForFree()).toBe(true);
    configure({ NODE_ENV: "production", PAYMENT_GATEWAY: "sandbox", DEMO_DATA: "1" });
    expect(sandboxPaysForFree()).toBe(false);
    configure({ NODE_ENV: "production", PAYMENT_GATEWAY: "midtrans", MIDTRANS_SERVER_KEY: "SB-Mid-server-uji-1234567890" });
    expect(sandboxPaysForFree()).toBe(false);
    configure({ NODE_ENV: "development" });
    expect(sandboxPaysForFree()).toBe(false);
  });
});

describe("TRUST_PROXY (issue 25)", () => {
  it("is a number of hops, or the proxies' addresses and CIDRs", () => {
    configure({});
    expect(env().trustProxy).toBe(0);
    configure({ TRUST_PROXY: "1" });
    expect(env().trustProxy).toBe(1);
    configure({ TRUST_PROXY: "10.0.0.5, 10.0.1.0/24,fd00::/8, 2001:db8::1" });
    expect(env().trustProxy).toEqual(["10.0.0.5", "10.0.1.0/24", "fd00::/8", "2001:db8::1"]);
    for (const wrong of ["10.0.0.300", "10.0.0.0/33", "fd00::/129", "proxy.example", "10.0.0.1,", "-1"]) {
      configure({ TRUST_PROXY: wrong });
      expect(() => env(), wrong).toThrow(
        /TRUST_PROXY: must be the number of reverse proxies in front of the app \(0, 1, 2 …\) or their addresses/,
      );
    }
  });
});

describe("PAYMENT_GATEWAY=midtrans", () => {
  it("needs MIDTRANS_SERVER_KEY, and never repeats a key it refuses", () => {
    configure({ PAYMENT_GATEWAY: "midtrans" });
    expect(() => env()).toThrow("MIDTRANS_SERVER_KEY: is required when PAYMENT_GATEWAY=midtrans");
    configure({ PAYMENT_GATEWAY: "midtrans", MIDTRANS_SERVER_KEY: "SB-Mid-server secret with spaces" });
    expect(() => env()).toThrow(/MIDTRANS_SERVER_KEY: must be the server key/);
    expect(() => env()).not.toThrow(/secret with spaces/);
    configure({ PAYMENT_GATEWAY: "paypal" });
    expect(() => env()).toThrow("PAYMENT_GATEWAY: must be sandbox or midtrans");
  });

  it("defaults to Midtrans's sandbox URLs, production's with MIDTRANS_ENV, or the overrides", () => {
    configure({ PAYMENT_GATEWAY: "midtrans", MIDTRANS_SERVER_KEY: "SB-Mid-server-abcdef123456" });
    expect(env().midtrans).toEqual({
      serverKey: "SB-Mid-server-abcdef123456",
      environment: "sandbox",
      apiUrl: "https://api.sandbox.midtrans.com",
      snapUrl: "https://app.sandbox.midtrans.com",
    });
    configure({ PAYMENT_GATEWAY: "midtrans", MIDTRANS_SERVER_KEY: "Mid-server-abcdef123456", MIDTRANS_ENV: "production" });
    expect(env().midtrans).toMatchObject({ apiUrl: "https://api.midtrans.com", snapUrl: "https://app.midtrans.com" });
    configure({
      PAYMENT_GATEWAY: "midtrans",
      MIDTRANS_SERVER_KEY: "SB-Mid-server-abcdef123456",
      MIDTRANS_API_URL: "http://127.0.0.1:9/",
      MIDTRANS_SNAP_URL: "http://127.0.0.1:8",
    });
    expect(env().midtrans).toMatchObject({ apiUrl: "http://127.0.0.1:9", snapUrl: "http://127.0.0.1:8" });
    configure({ PAYMENT_GATEWAY: "midtrans", MIDTRANS_SERVER_KEY: "SB-Mid-server-abcdef123456", MIDTRANS_ENV: "staging" });
    expect(() => env()).toThrow("MIDTRANS_ENV: must be sandbox or production");
  });

  it("sends VAs and the card instalment to Midtrans, manual transfer and BRI-CERIA to the sandbox, and lets forms reach Snap", () => {
    configure({ PAYMENT_GATEWAY: "midtrans", MIDTRANS_SERVER_KEY: "SB-Mid-server-abcdef123456" });
    expect(getGateway({ type: "virtual_account" }).name).toBe("midtrans");
    expect(getGateway({ type: "installment" }).name).toBe("midtrans");
    expect(getGateway({ type: "bank_transfer" }).name).toBe("sandbox");
    expect(getGateway({ type: "paylater" }).name).toBe("sandbox");
    expect(contentSecurityPolicy("n", true, gatewayFormActionOrigins())).toContain("form-action 'self' https://app.sandbox.midtrans.com;");
    configure({});
    expect(getGateway({ type: "virtual_account" }).name).toBe("sandbox");
    expect(contentSecurityPolicy("n", true, gatewayFormActionOrigins())).toContain("form-action 'self';");
  });
});
