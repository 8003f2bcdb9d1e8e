import { defineArea, idOf, invalid, ok, readJson } from "~/.server/http/api";
import { list, object } from "~/.server/http/api-shapes";
import { listNotifications, markNotificationsRead, NOTIFICATIONS_PAGE_SIZE, unreadNotificationCount } from "~/.server/store/messages";

// The bell's notifications (issue 28): what /notifikasi shows. Listing reads only; the client
// marks them read with POST /read (the page marks them read when opened).

const NOTIFICATION = object({
  id: { type: "integer" },
  title: { type: "string" },
  body: { type: "string" },
  link: { type: "string", description: "The store's page it leads to (the order, or its payment)" },
  orderId: { anyOf: [{ type: "integer" }, { type: "null" }] },
  createdAt: { type: "string", format: "date-time" },
  unread: { type: "boolean" },
});

const area = defineArea("notification", {
  "/list": {
    method: "GET",
    auth: true,
    doc: {
      summary: "The buyer's notifications, newest first, 10 at a time, with the unread count",
      query: { before: { type: "integer", description: "Continue after this id (the last one of the previous answer)" } },
      data: object({ content: list(NOTIFICATION), unread: { type: "integer" }, hasMore: { type: "boolean" } }),
      errors: [400],
    },
    async handle({ url, user }) {
      const raw = url.searchParams.get("before");
      const before = raw === null ? undefined : idOf(raw);
      if (raw !== null && before === undefined) throw invalid({ before: ["before tidak valid."] });
      const [page, unread] = await Promise.all([
        listNotifications(user.id, { limit: NOTIFICATIONS_PAGE_SIZE, before }),
        unreadNotificationCount(user.id),
      ]);
      return ok({ content: page.items, unread, hasMore: page.more });
    },
  },
  "/read": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Marks the buyer's notifications read: all, or those up to `upTo` (an id)",
      body: object({ upTo: { type: "integer", description: "Optional: only notifications with this id or older" } }, []),
      data: object({ marked: { type: "integer" }, unread: { type: "integer" } }),
      errors: [400],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      const upTo = body.upTo === undefined || body.upTo === null ? undefined : idOf(body.upTo);
      if (body.upTo !== undefined && body.upTo !== null && upTo === undefined) throw invalid({ upTo: ["upTo tidak valid."] });
      const marked = await markNotificationsRead(user.id, upTo);
      return ok({ marked, unread: await unreadNotificationCount(user.id) }, "Notifikasi ditandai sudah dibaca.");
    },
  },
});

export const NOTIFICATION_AREA = area;
