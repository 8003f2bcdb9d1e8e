import { describe, expect, it } from "vitest";
import { linkSegments } from "./linkify";

const links = (text: string) => linkSegments(text).filter((s) => s.type === "link");

describe("linkSegments", () => {
  it("makes http and https links, keeping the text around them", () => {
    const segments = linkSegments("Spesifikasi: https://gesits.co.id/spesifikasi dan http://www.pln.co.id/a?b=1#c.");
    expect(segments).toEqual([
      { type: "text", text: "Spesifikasi: " },
      { type: "link", text: "https://gesits.co.id/spesifikasi", href: "https://gesits.co.id/spesifikasi" },
      { type: "text", text: " dan " },
      { type: "link", text: "http://www.pln.co.id/a?b=1#c", href: "http://www.pln.co.id/a?b=1#c" },
      { type: "text", text: "." },
    ]);
  });

  it("keeps the whole text, character for character", () => {
    const text = "Info (https://pln.co.id/x), lalu https://pln.co.id/y!\nBaris dua <b>tebal</b>";
    expect(
      linkSegments(text)
        .map((s) => s.text)
        .join(""),
    ).toBe(text);
  });

  it("never links other schemes or markup", () => {
    const hostile =
      '<script>alert(1)</script> javascript:alert(1) data:text/html,<b>x</b> <a href="javascript:alert(1)">x</a> vbscript:x //evil.example';
    expect(links(hostile)).toEqual([]);
    expect(linkSegments(hostile)).toEqual([{ type: "text", text: hostile }]);
  });

  it("stops a link at quotes and angle brackets", () => {
    const [link] = links('Resmi: https://www.pln.co.id/stop?x="onmouseover=alert(1)');
    expect(link).toMatchObject({ href: "https://www.pln.co.id/stop?x=" });
    expect(links("<https://pln.co.id/a>")[0]).toMatchObject({ href: "https://pln.co.id/a" });
  });

  it("does not link a scheme without a host", () => {
    expect(links("lihat https:// saja")).toEqual([]);
    expect(links("HTTPS://PLN.CO.ID/Promo")[0]).toMatchObject({ href: "https://pln.co.id/Promo" });
  });
});
