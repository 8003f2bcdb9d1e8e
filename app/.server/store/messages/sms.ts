import { writeToOutbox } from "./mail";
import { log } from "../../log";

// Text messages (DESIGN §6 "Mail and SMS go through small interfaces"). No SMS provider is wired in
// yet, so the sandbox sender is always used: each message goes to the demo outbox in DATA_DIR in
// the e-mail format (`to` = the phone number, the text in `text`) and is logged, whether or not
// SMTP is configured. A real provider implements SmsSender and is chosen in smsSender().

export type SmsResult = { ok: true } | { ok: false; code: "NOT_EXIST" };

export interface SmsSender {
  readonly name: string;
  /** Sends `text` to `phone` (digits). NOT_EXIST: the provider knows no subscriber with that number. */
  send(phone: string, text: string): Promise<SmsResult>;
}

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
  return sandboxSmsSender;
}

/** True while text messages go to the outbox (always, until a provider is configured). */
export function smsUsesOutbox(): boolean {
  return smsSender() === sandboxSmsSender;
}
