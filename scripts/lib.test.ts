import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript module without types
import { serverLogOutput } from "./lib.mjs";

// `npm start` in a terminal (issue 25): the server's JSON lines become readable ones; anywhere else
// (a pipe, a file, a log collector) they pass unchanged.

const REQUEST = {
  level: "info",
  time: "2026-11-25T13:23:24.205Z",
  reqId: "5b12cc93b4c11320",
  method: "GET",
  route: "routes/home",
  path: "/home",
  status: 200,
  ms: 3.2,
  msg: "request",
};
const WARNING = {
  level: "warn",
  time: "2026-11-25T13:23:25.000Z",
  msg: "PAYMENT_GATEWAY=sandbox: any buyer can pay their own orders for free",
};

async function shown(pretty: boolean, lines: object[]): Promise<string> {
  const target = new PassThrough();
  let text = "";
  target.on("data", (chunk: Buffer) => (text += chunk));
  const output = await serverLogOutput(target, pretty);
  for (const line of lines) output.write(`${JSON.stringify(line)}\n`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return text;
}

describe("the server's log under npm start", () => {
  it("is one readable line per entry in a terminal: time, level, the request as method, path, status and time", async () => {
    const text = await shown(true, [REQUEST, WARNING]);
    const [request, warning] = text.trimEnd().split("\n");
    expect(request).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: GET \/home 200 3\.2 ms$/);
    expect(warning).toMatch(/^\[\d{2}:\d{2}:\d{2}\] WARN: PAYMENT_GATEWAY=sandbox: any buyer can pay their own orders for free$/);
    expect(text).not.toContain("{");
  });

  it("stays JSON lines anywhere else", async () => {
    expect(await shown(false, [REQUEST])).toBe(`${JSON.stringify(REQUEST)}\n`);
  });
});
