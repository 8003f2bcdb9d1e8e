// The messages domain (issue 28): the durable job queue (pg-boss) through which every e-mail and SMS
// is sent, the e-mails' one layout, the SMS providers, the buyer's notifications (the bell), payment
// reminders, and what ops see of it. What the doors (pages, the API, the ops CLI, the gateways) and
// other domains may call; inside the domain, modules import each other directly (DESIGN §3).
export { defineMail, messageIdFor } from "./deliver";
export { renderEmail, type EmailContent } from "./email-layout";
export { type MailMessage, mayReadOutbox, OUTBOX_KEEP_DAYS, type OutboxEntry, outboxWarning, pruneOutbox, readOutbox } from "./mail";
export {
  addNotification,
  listNotifications,
  markNotificationsRead,
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationItem,
  unreadNotificationCount,
} from "./notifications";
export { announceOrderEvent } from "./order-messages";
export { jobCounts, listUndeliveredMessages, type MessageRow, type MessageStatus, registerMessageMetrics, resendMessage } from "./ops";
export { awaitFirstTry, enqueueMessage, jobQueue, type MessageQueue, messageState, type ScheduledWork, startMessageWorkers } from "./queue";
export { sendPaymentReminders } from "./reminders";
export { smsUsesOutbox } from "./sms";
