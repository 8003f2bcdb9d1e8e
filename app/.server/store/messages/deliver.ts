import { env } from "../../env";
import { sendMail, type MailMessage } from "./mail";
import { type MessageData, setDeliverer } from "./queue";
import { smsSender } from "./sms";

// The workers' side of the queue: a mail job names what to send (its kind and ids); the e-mail is
// rendered from the database when it is delivered, so no secret link sits in the job table and a
// retry sends the same message. A kind is defined by the domain that owns its facts (the order
// e-mails here in messages, the account e-mails in people: it issues their links), at module load.

type MailRenderer = (data: MessageData) => Promise<MailMessage | null>;
const mailKinds = new Map<string, MailRenderer>();

/** Defines how a mail job of `kind` becomes an e-mail (null: nothing to send any more, e.g. the account is gone). */
export function defineMail(kind: string, render: MailRenderer): void {
  mailKinds.set(kind, render);
}

/** The Message-ID of a queued message: the same on every try, so a receiver can drop a repeat. */
export function messageIdFor(jobId: string): string {
  return `<${jobId}@${new URL(env().appUrl).hostname}>`;
}

setDeliverer("mail", async (data, job) => {
  const render = mailKinds.get(data.kind);
  if (!render) throw new Error(`unknown mail kind ${data.kind}`);
  const message = await render(data);
  if (!message) return { skipped: "nothing to send" };
  await sendMail(message, messageIdFor(job.id));
  return { delivered: true };
});

/** An SMS job: the text is the message (a one-time code: the SMS queue keeps its jobs 15 minutes). */
export type SmsData = { kind: "sms"; phone: string; text: string };

setDeliverer("sms", async (data) => {
  const { phone, text } = data as SmsData;
  // A provider outage throws: the job is tried again later. An unknown number is an answer.
  const sent = await smsSender().send(phone, text);
  return sent.ok ? { delivered: true } : { refused: sent.code };
});
