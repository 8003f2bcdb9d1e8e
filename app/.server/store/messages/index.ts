// The messages domain: e-mail (SMTP or the demo outbox), text messages, the buyers' order e-mails, work after the answer.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export { runAfterResponse, settleJobs } from "./jobs";
export { linkEmail, mayReadOutbox, type OutboxEntry, outboxWarning, readOutbox, sendMail } from "./mail";
export { notifyOrderStatus } from "./order-mail";
export { smsSender, smsUsesOutbox } from "./sms";
