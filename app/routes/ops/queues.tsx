import type { Route } from "./+types/queues";
import { requireStaff } from "~/.server/http/ops-access";
import { formatAge } from "~/.server/store/back-office";
import { queueSummaries } from "~/.server/store/back-office";
import type { RouteHandle } from "~/lib/route-handle";
import { hasRole } from "~/lib/staff-roles";

// /ops: the back office's home for every staff member: the queues their roles work on ('Pesanan':
// the order queues, 'Keuangan': the withdrawals), each with how many wait and how long the oldest
// has waited.
export const handle: RouteHandle = { title: "Antrean Back Office" };

export async function loader({ context }: Route.LoaderArgs) {
  const staff = requireStaff(context);
  const now = new Date();
  const mayWork = (key: string) => hasRole(staff.roles, key === "penarikan" ? "keuangan" : "pesanan");
  const queues = (await queueSummaries()).filter((q) => mayWork(q.key));
  return {
    queues: queues.map((q) => ({
      key: q.key,
      title: q.title,
      count: q.count,
      href: q.key === "penarikan" ? "/ops/withdrawals" : `/ops/queue/${q.key}`,
      oldest: q.oldest ? formatAge(q.oldest, now) : null,
    })),
  };
}

export default function Queues({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Antrean</h1>
      {loaderData.queues.length === 0 ? <p>Tidak ada antrean untuk peran Anda. Pilih menu di atas.</p> : null}
      <ul className="ops-queues">
        {loaderData.queues.map((q) => (
          <li key={q.key}>
            <a className="ops-queue" href={q.href} data-testid={`queue-${q.key}`}>
              <span className="ops-queue-title">{q.title}</span>
              <span className="ops-queue-count" data-testid="queue-count">
                {q.count}
              </span>
              <span className="ops-queue-age">{q.oldest ? `Terlama menunggu: ${q.oldest}` : "Tidak ada yang menunggu"}</span>
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}
