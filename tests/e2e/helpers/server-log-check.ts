import fs from "node:fs";

// Issue 35 item 5: the server's log carries no personal data. After the suite, the log the e2e
// server wrote (playwright.config.ts sends its standard output to E2E_SERVER_LOG) is searched for
// what the suites typed as buyers: NIKs, phone numbers, e-mail addresses and the names the helpers
// register with. One hit fails the run; the report names the pattern and the line number only,
// never the value (it is the personal data this check keeps out of output).

const PATTERNS: Record<string, RegExp> = {
  // Not inside a longer word: request ids are random letters and digits.
  NIK: /(?<![\w.])[1-9]\d{15}(?!\w)/,
  phone: /(?<![\w.])(?:\+62|62|0)8\d{7,12}(?!\w)/,
  "e-mail": /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/,
  name: /Rina Wulandari|Dewi Lestari|Budi Santoso|Dimas Pratama|Penyusup|Orang Jahat/i,
};

/**
 * Values the log carries on purpose that look like the above: the request id (hex, sometimes all
 * digits) and a virtual account's number (16 digits, the bank's payment number, not a person's).
 */
const NOT_PERSONAL = [/"reqId":"[^"]*"/g, /\bva=\d+/g];

export default function checkServerLog() {
  // One file per server (comma-separated: the two-instance suite).
  const files = (process.env.E2E_SERVER_LOG ?? "").split(",").filter(Boolean);
  if (!files.length) throw new Error("server-log check: E2E_SERVER_LOG is unset");
  const hits: string[] = [];
  let count = 0;
  for (const file of files) {
    if (!fs.existsSync(file)) throw new Error(`server-log check: no server log at ${file}`);
    const lines = fs.readFileSync(file, "utf8").split("\n");
    count += lines.length;
    lines.forEach((raw, index) => {
      const line = NOT_PERSONAL.reduce((text, pattern) => text.replace(pattern, ""), raw);
      for (const [kind, pattern] of Object.entries(PATTERNS)) if (pattern.test(line)) hits.push(`${file} line ${index + 1}: ${kind}`);
    });
  }
  console.log(`[server-log check] ${count} lines of the e2e servers' logs, ${hits.length} with personal data`);
  if (hits.length) throw new Error(`personal data in the server log:\n${hits.slice(0, 50).join("\n")}`);
}
