// A fake Twilio Messaging API for the tests (issue 28), written from Twilio's documentation:
// POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded `To` (E.164), `Body` and
// `From` or `MessagingServiceSid`, HTTP Basic auth with the Account SID and Auth Token. It answers
// 201 with the Message resource (`sid` SM…, `status` "queued"); a bad number 400 with Twilio's error
// body ({ code: 21211, message, more_info, status }); wrong credentials 401 (code 20003). It can be
// told to fail like an outage (503) for a while, and it keeps what it accepted for the test to read.
//
// Plain erasable TypeScript with node: imports only (like tests/fakes/midtrans.ts).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeTwilioOptions = { accountSid: string; authToken: string; port?: number };
export type SentSms = { sid: string; to: string; from: string | null; messagingServiceSid: string | null; body: string };

export type FakeTwilio = {
  url: string;
  sent: SentSms[];
  /** Numbers (E.164) Twilio refuses as not valid: 400 with error 21211. */
  invalidNumbers: Set<string>;
  /** The next `count` requests answer 503 (an outage). */
  failNext(count: number): void;
  requests: number;
  close(): Promise<void>;
};

const twilioError = (code: number, message: string, status: number) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status,
});

export async function startFakeTwilio(options: FakeTwilioOptions): Promise<FakeTwilio> {
  const fake: Omit<FakeTwilio, "url" | "close"> = {
    sent: [],
    invalidNumbers: new Set(),
    failNext: (count) => (outage = count),
    requests: 0,
  };
  let outage = 0;
  const expectedAuth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString("base64")}`;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      fake.requests++;
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (outage > 0) {
        outage--;
        return answer(503, { code: 20500, message: "Service Unavailable", status: 503 });
      }
      const path = `/2010-04-01/Accounts/${options.accountSid}/Messages.json`;
      if (req.method !== "POST" || req.url !== path) return answer(404, twilioError(20404, "The requested resource was not found", 404));
      if (req.headers.authorization !== expectedAuth) return answer(401, twilioError(20003, "Authenticate", 401));
      const form = new URLSearchParams(raw);
      const to = form.get("To") ?? "";
      const body = form.get("Body") ?? "";
      const from = form.get("From");
      const messagingServiceSid = form.get("MessagingServiceSid");
      if (!to) return answer(400, twilioError(21604, "A 'To' phone number is required.", 400));
      if (!from && !messagingServiceSid)
        return answer(400, twilioError(21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message", 400));
      if (!body) return answer(400, twilioError(21602, "Message body is required.", 400));
      if (!/^\+[1-9]\d{7,14}$/.test(to) || fake.invalidNumbers.has(to))
        return answer(400, twilioError(21211, `The 'To' number ${to} is not a valid phone number.`, 400));
      const sid = `SM${crypto.randomBytes(16).toString("hex")}`;
      fake.sent.push({ sid, to, from, messagingServiceSid, body });
      const now = new Date().toUTCString();
      answer(201, {
        sid,
        account_sid: options.accountSid,
        to,
        from,
        messaging_service_sid: messagingServiceSid,
        body,
        status: "queued",
        num_segments: "1",
        direction: "outbound-api",
        api_version: "2010-04-01",
        date_created: now,
        date_updated: now,
        date_sent: null,
        error_code: null,
        error_message: null,
        uri: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}.json`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    get requests() {
      return fake.requests;
    },
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  } as FakeTwilio;
}
