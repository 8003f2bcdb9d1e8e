import type { TwilioSettings } from "../env";
import { log } from "../log";

// Text messages through Twilio's Messaging API (decision 0054): the SMS provider's adapter, as the
// payment gateways are adapters of theirs. The store's messages domain (store/messages/sms.ts)
// chooses it (SMS_PROVIDER=twilio) and its queue's worker sends through it.

export type SmsResult = { ok: true } | { ok: false; code: "NOT_EXIST" };

export interface SmsSender {
  readonly name: string;
  /**
   * Sends `text` to `phone` (digits). NOT_EXIST: the provider refuses the number for good. Throws
   * when the provider cannot be reached or fails (the queue tries again later).
   */
  send(phone: string, text: string): Promise<SmsResult>;
}

/** An Indonesian number as Twilio wants it (E.164): 0812… and 62812… both become +62812…. */
export function toE164(digits: string): string {
  if (digits.startsWith("0")) return `+62${digits.slice(1)}`;
  return `+${digits}`;
}

/**
 * Twilio's answers that no retry will change (its error codes): 21211 not a valid phone number,
 * 21612 not reachable from this sender, 21614 not a mobile number. The buyer is told 'Nomor
 * Telephone tak terdaftar' and may correct it.
 */
const TWILIO_REFUSED_NUMBER = new Set([21211, 21612, 21614]);

/** Twilio's Messaging API: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth. */
export function twilioSmsSender(settings: TwilioSettings): SmsSender {
  const url = `${settings.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`;
  return {
    name: "twilio",
    async send(phone, text) {
      const form = new URLSearchParams({ To: toE164(phone), Body: text });
      // A Messaging Service SID (MG…) picks the sender itself; otherwise From is the number or sender id.
      form.set(settings.from.startsWith("MG") ? "MessagingServiceSid" : "From", settings.from);
      const response = await fetch(url, {
        method: "POST",
        headers: { Authorization: authorization, "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: form,
        signal: AbortSignal.timeout(15_000),
      });
      const answer = (await response.json().catch(() => null)) as { sid?: string; code?: number; status?: string } | null;
      if (response.ok) {
        // Never the text nor the number: the code is a secret, the number personal data.
        log.info({ sms: "twilio", sid: answer?.sid, status: answer?.status }, "sms accepted by the provider");
        return { ok: true };
      }
      if (response.status === 400 && answer?.code && TWILIO_REFUSED_NUMBER.has(answer.code)) {
        log.info({ sms: "twilio", code: answer.code }, "sms refused: the number cannot receive it");
        return { ok: false, code: "NOT_EXIST" };
      }
      throw new Error(`Twilio answered HTTP ${response.status}${answer?.code ? ` (error ${answer.code})` : ""}`);
    },
  };
}
