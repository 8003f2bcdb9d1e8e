import type { Route } from "./+types/queues";
import { requireOperator } from "~/.server/http/ops-access";
import { formatAge } from "~/.server/store/back-office";
import { queueSummaries } from "~/.server/store/back-office";
import type { RouteHandle } from "~/lib/route-handle";

// /ops: the operators' queues, each with how many wait and how long the oldest has waited.
export const handle: RouteHandle = { title: "Antrean Back Office" };

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const now = new Date();
  const queues = await queueSummaries();
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
