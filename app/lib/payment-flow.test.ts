import { describe, expect, it } from "vitest";
import { paylaterFailureUrl } from "./payment-flow";

describe("paylaterFailureUrl (spec §8)", () => {
  it("sends the browser to a failure message that is a valid http(s) URL", () => {
    expect(paylaterFailureUrl("https://ceria.bri.co.id/daftar?ref=toko")).toBe("https://ceria.bri.co.id/daftar?ref=toko");
    expect(paylaterFailureUrl("  http://contoh.test/lanjut  ")).toBe("http://contoh.test/lanjut");
  });

  it("shows every other message: words, other schemes, a URL inside a sentence", () => {
    for (const message of [
      "Nomor Telephone tak terdaftar",
      "javascript:alert(1)",
      "data:text/html,hai",
      "Buka https://contoh.test untuk mendaftar",
      "https://",
      "",
    ]) {
      expect(paylaterFailureUrl(message), message).toBeNull();
    }
  });
});
