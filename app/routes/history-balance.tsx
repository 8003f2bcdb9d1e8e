import { Link } from "react-router";
import type { Route } from "./+types/history-balance";
import { requireUser } from "~/.server/http/auth";
import { dayHeadingWib } from "~/.server/dates";
import { formatClockWib } from "~/lib/time";
import { getBalance, listBalanceHistory } from "~/.server/store/orders";
import { formatRupiah } from "~/lib/money";
import type { RouteHandle } from "~/lib/route-handle";
import ordersStylesUrl from "~/styles/orders.css?url";
export const handle: RouteHandle = { title: "Riwayat Saldo", back: "/profile" };

// The order screens' styles load only on these screens.
export const links = () => [{ rel: "stylesheet", href: ordersStylesUrl }];

/** Spec §4: balance item status texts and their colours; anything else is info. */
const STATUS_TONE: Record<string, string> = { "Dalam Proses": "warning", Berhasil: "success", Dibatalkan: "danger" };

/**
 * Spec §2 balance history: the balance, then the items newest first, grouped by the WIB day they
 * happened ('Hari ini', 'Kemarin', else 'DD MMM YYYY'). A credit shows '+', a withdrawal '−'.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const [balance, items] = await Promise.all([getBalance(user.id), listBalanceHistory(user.id)]);
  const now = new Date();
  const groups: {
    heading: string;
    items: {
      id: number;
      title: string;
      description: string;
      amount: string;
      credit: boolean;
      status: string | null;
      tone: string;
      time: string;
    }[];
  }[] = [];
  for (const item of items) {
    const heading = dayHeadingWib(item.createdAt, now);
    let group = groups[groups.length - 1];
    if (group?.heading !== heading) groups.push((group = { heading, items: [] }));
    const credit = item.kind === "credit";
    group.items.push({
      id: item.id,
      title: item.title,
      description: item.description,
      amount: `${credit ? "+" : "−"}${formatRupiah(item.amount)}`,
      credit,
      status: item.status,
      tone: item.status ? (STATUS_TONE[item.status] ?? "info") : "info",
      time: formatClockWib(item.createdAt),
    });
  }
  return { balance, groups };
}

export default function HistoryBalance({ loaderData }: Route.ComponentProps) {
  const { balance, groups } = loaderData;
  return (
    <>
      <section className="card balance-card" aria-label="Saldo">
        <p className="muted">Saldo Anda</p>
        <p className="balance-amount" data-testid="balance">
          {formatRupiah(balance)}
        </p>
      </section>
      {groups.length === 0 ? (
        <section className="empty-state" data-testid="balance-empty">
          <h2>Belum ada riwayat saldo</h2>
          <p className="muted">Reward dari pesanan yang selesai akan muncul di sini.</p>
          <Link to="/home" className="btn btn-primary">
            Mulai Belanja
          </Link>
        </section>
      ) : (
        groups.map((group) => (
          <section key={group.heading} className="balance-group" aria-label={group.heading}>
            <h2 className="balance-day">{group.heading}</h2>
            <ul className="card balance-list">
              {group.items.map((item) => (
                <li key={item.id} className="balance-item" data-testid="balance-item">
                  <div className="balance-item-text">
                    <p className="strong">{item.title}</p>
                    <p className="muted small">{item.description}</p>
                    <p className="muted small">{item.time}</p>
                  </div>
                  <div className="balance-item-side">
                    <p className={`strong ${item.credit ? "text-success" : "text-danger"}`} data-testid="balance-amount">
                      {item.amount}
                    </p>
                    {item.status ? <p className={`small status-text text-${item.tone}`}>{item.status}</p> : null}
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  );
}
