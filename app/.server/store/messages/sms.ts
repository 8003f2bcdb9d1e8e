import { env } from "../../env";
import { type SmsSender, twilioSmsSender } from "../../gateway";
import { writeToOutbox } from "./mail";
import { log } from "../../log";

// Text messages (DESIGN §6 "Mail and SMS go through small interfaces"), sent by the SMS queue's
// worker (deliver.ts). SMS_PROVIDER chooses the sender: `sandbox` (the default) writes each
// message to the demo outbox in DATA_DIR in the e-mail format (`to` = the phone number, the text in
// `text`); `twilio` sends it through Twilio's Messaging API (decision 0054), an adapter of the gateway layer
// (app/.server/gateway/twilio-sms.ts).

export type { SmsResult, SmsSender } from "../../gateway";
export { toE164, twilioSmsSender } from "../../gateway";

/** The sandbox's unknown subscriber: a number ending in 0000 answers NOT_EXIST (issue 7). */
const SANDBOX_UNKNOWN_SUFFIX = "0000";

export const sandboxSmsSender: SmsSender = {
  name: "sandbox",
  async send(phone, text) {
    if (phone.endsWith(SANDBOX_UNKNOWN_SUFFIX)) {
      log.info({ sms: "sandbox", result: "NOT_EXIST" }, "sms not delivered (sandbox: unknown number)");
      return { ok: false, code: "NOT_EXIST" };
    }
    const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    await writeToOutbox({ to: phone, subject: "SMS", text, html: `<p>${escaped}</p>` });
    // Never the text: it holds the one-time code.
    log.info({ sms: "sandbox" }, "sms written to the outbox");
    return { ok: true };
  },
};

export function smsSender(): SmsSender {
  const twilio = env().twilio;
  return twilio ? twilioSmsSender(twilio) : sandboxSmsSender;
}

/** True while text messages go to the outbox (SMS_PROVIDER=sandbox, the default). */
export function smsUsesOutbox(): boolean {
  return !env().twilio;
}
