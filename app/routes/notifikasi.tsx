import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/notifikasi";
import { requireUser } from "~/.server/http/auth";
import { formatDateTimeWib } from "~/.server/dates";
import { readForm } from "~/.server/http/request";
import { listNotifications, markNotificationsRead, NOTIFICATIONS_PAGE_SIZE } from "~/.server/store/messages";
import { SubmitButton } from "~/components/submit-button";
import { readPage } from "~/lib/paging";
import type { RouteHandle } from "~/lib/route-handle";
import ordersStylesUrl from "~/styles/orders.css?url";

export const handle: RouteHandle = { title: "Notifikasi", back: "/home" };

// The order screens' stylesheet (cards, lists) holds this page's few rules too.
export const links = () => [{ rel: "stylesheet", href: ordersStylesUrl }];

/**
 * The bell's page (issue 28): the buyer's notifications newest first, 10 more per 'Muat lebih
 * banyak' (`?page=N` shows pages 0..N, so it works without JavaScript), unread ones marked. Opening
 * the page marks what it shows read (the badge clears); 'Tandai semua sudah dibaca' marks all.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { page } = readPage(url);
  const shown = Math.min(page, 50) + 1;
  const { items, more } = await listNotifications(user.id, { limit: shown * NOTIFICATIONS_PAGE_SIZE });
  // Shown as they were (unread marked), then read: the next page or the bell no longer counts them.
  if (items.some((item) => item.unread)) await markNotificationsRead(user.id, items[0]!.id);
  return {
    items: items.map((item, index) => ({
      ...item,
      createdAt: formatDateTimeWib(item.createdAt),
      anchor: index > 0 && index % NOTIFICATIONS_PAGE_SIZE === 0 ? `halaman-${index / NOTIFICATIONS_PAGE_SIZE}` : undefined,
    })),
    nextPage: more ? shown : null,
    anyUnread: items.some((item) => item.unread),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await readForm(request);
  if (form.get("intent") === "read-all") await markNotificationsRead(user.id);
  return redirect("/notifikasi");
}

export default function NotificationsScreen({ loaderData }: Route.ComponentProps) {
  const { items, nextPage } = loaderData;
  if (!items.length) {
    return (
      <section className="empty-state" data-testid="notifications-empty">
        <p>Belum ada notifikasi</p>
      </section>
    );
  }
  return (
    <section aria-label="Daftar notifikasi">
      <Form method="post" className="notification-actions">
        <input type="hidden" name="intent" value="read-all" />
        <SubmitButton className="btn btn-outline btn-small">Tandai semua sudah dibaca</SubmitButton>
      </Form>
      <ul className="notification-list">
        {items.map((item) => (
          <li
            key={item.id}
            id={item.anchor}
            className={item.unread ? "card notification is-unread" : "card notification"}
            data-testid="notification"
          >
            <Link to={item.link} className="notification-link">
              <span className="notification-title">
                {item.unread ? (
                  <span className="notification-dot" role="img" aria-label="Belum dibaca" data-testid="notification-unread" />
                ) : null}
                {item.title}
              </span>
              <span className="notification-body">{item.body}</span>
              <span className="muted notification-date">{item.createdAt}</span>
            </Link>
          </li>
        ))}
      </ul>
      {nextPage !== null ? (
        <a className="btn btn-outline btn-block" href={`/notifikasi?page=${nextPage}#halaman-${nextPage}`}>
          Muat lebih banyak
        </a>
      ) : null}
    </section>
  );
}
