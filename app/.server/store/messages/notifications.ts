import { and, count, desc, eq, isNull, lt } from "drizzle-orm";
import { getDb, type Executor } from "../../db/client";
import { notifications } from "../../db/schema";

// The bell (spec §2, issue 28 item 3): a buyer's notifications, newest first. Rows are written by
// the messages that cause them (order-messages.ts, reminders.ts) in the transaction of their event;
// a key names the event, so an event never notifies twice.

export const NOTIFICATIONS_PAGE_SIZE = 10;

export type NewNotification = { userId: number; key: string; title: string; body: string; orderId: number | null; link: string };

/** Writes the notification unless its key has one already; true when it was written. */
export async function addNotification(tx: Executor, notification: NewNotification): Promise<boolean> {
  const written = await tx
    .insert(notifications)
    .values(notification)
    .onConflictDoNothing({ target: notifications.key })
    .returning({ id: notifications.id });
  return written.length > 0;
}

export type NotificationItem = {
  id: number;
  title: string;
  body: string;
  link: string;
  orderId: number | null;
  createdAt: Date;
  unread: boolean;
};

/**
 * The buyer's newest notifications: `pages` pages of 10 (the page's 'Muat lebih banyak' asks for
 * one more), `before` an id to continue after (the API's paging). `more`: older ones exist.
 */
export async function listNotifications(
  userId: number,
  options: { limit: number; before?: number },
): Promise<{ items: NotificationItem[]; more: boolean }> {
  const db = await getDb();
  const rows = await db
    .select({
      id: notifications.id,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      orderId: notifications.orderId,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), options.before ? lt(notifications.id, options.before) : undefined))
    .orderBy(desc(notifications.id))
    .limit(options.limit + 1);
  const items = rows.slice(0, options.limit).map(({ readAt, ...row }) => ({ ...row, unread: readAt === null }));
  return { items, more: rows.length > options.limit };
}

/** How many of the buyer's notifications are unread (the bell's badge). */
export async function unreadNotificationCount(userId: number): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks the buyer's notifications read: all, or those up to id `upTo` (what a page showed). Returns how many changed. */
export async function markNotificationsRead(userId: number, upTo?: number): Promise<number> {
  const db = await getDb();
  const changed = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), upTo ? lt(notifications.id, upTo + 1) : undefined))
    .returning({ id: notifications.id });
  return changed.length;
}
