import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "./sanitize-html";

describe("sanitizeHtml", () => {
  it("keeps the formatting tags of the how-to content, without attributes", () => {
    expect(sanitizeHtml('<ol><li>Pilih <b class="x" onclick="alert(1)">Transfer</b> &gt; <strong>VA</strong></li></ol>')).toBe(
      "<ol><li>Pilih <b>Transfer</b> &gt; <strong>VA</strong></li></ol>",
    );
    expect(sanitizeHtml("a<br/>b<br>c")).toBe("a<br>b<br>c");
  });

  it("drops scripts, event handlers, links, images and iframes", () => {
    expect(sanitizeHtml('<p>Halo<script>alert("x")</script></p>')).toBe("<p>Halo</p>");
    expect(sanitizeHtml('<img src=x onerror="alert(1)">teks')).toBe("teks");
    expect(sanitizeHtml('<a href="javascript:alert(1)">klik</a>')).toBe("klik");
    expect(sanitizeHtml('<iframe src="https://evil.test"></iframe>aman')).toBe("aman");
    expect(sanitizeHtml("<svg><script>alert(1)</script></svg>ok")).toBe("ok");
    expect(sanitizeHtml("<!-- <script>alert(1)</script> -->ok")).toBe("ok");
    expect(sanitizeHtml('<b title="a>b" onmouseover=alert(1)>x</b>')).toBe("<b>x</b>");
  });

  it("escapes text, keeps entities as entities, and closes what was left open", () => {
    expect(sanitizeHtml("1 < 2 & 3 > 2")).toBe("1 &lt; 2 &amp; 3 &gt; 2");
    expect(sanitizeHtml("&lt;script&gt;alert(1)&lt;/script&gt;")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
    // A new <li> ends the open one, as a browser parses it (the hand-made tokenizer nested them).
    expect(sanitizeHtml("<ol><li>satu<li>dua")).toBe("<ol><li>satu</li><li>dua</li></ol>");
    expect(sanitizeHtml("</b>teks</ol>")).toBe("teks");
    expect(sanitizeHtml("<b><i>x</b>y")).toBe("<b><i>x</i></b>y");
    expect(sanitizeHtml("<p>\"kutip\" & 'apostrof'</p>")).toBe("<p>&quot;kutip&quot; &amp; &#39;apostrof&#39;</p>");
  });

  it("parses as a browser does: a tag split to hide a script leaves only text, and nothing inside dropped elements survives", () => {
    expect(sanitizeHtml("<scr<script>alert(1)</script>ipt>alert(2)</script>")).toBe("alert(1)ipt&gt;alert(2)");
    expect(sanitizeHtml("<template><b>x</b></template><noscript><p>y</p></noscript><p>z</p>")).toBe("<p>z</p>");
  });

  it("treats an unterminated tag as dropped, never as text that becomes markup", () => {
    expect(sanitizeHtml("ok <script")).toBe("ok ");
    expect(sanitizeHtml('ok <img src="x" onerror="alert(1)"')).toBe("ok ");
  });
});
