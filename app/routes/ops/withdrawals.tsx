import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/withdrawals";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { formatAge, formatWhen, pageParam } from "~/.server/store/back-office";
import { flash } from "~/.server/http/session";
import { settleWithdrawal } from "~/.server/store/orders";
import { listWithdrawalsInProcess } from "~/.server/store/back-office";
import { recordAudit } from "~/.server/store/people";
import { formatRupiah } from "~/lib/money";
import type { RouteHandle } from "~/lib/route-handle";
import { Pager } from "./components";
import { parseId } from "~/lib/ids";

// /ops/withdrawals: the withdrawals 'Dalam Proses', oldest first, each settled 'Berhasil' (paid
// out) or 'Dibatalkan' (the amount back to the balance) by the same function as `balance:settle`.

const TITLE = "Penarikan Saldo";
export const handle: RouteHandle = { title: TITLE };

export async function loader({ url }: Route.LoaderArgs) {
  const page = await listWithdrawalsInProcess(pageParam(url));
  const now = new Date();
  return {
    ...page,
    items: page.items.map((w) => ({ ...w, createdAt: formatWhen(w.createdAt), waiting: formatAge(new Date(w.createdAt), now) })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  const id = parseId(form.get("withdrawalId"));
  const intent = form.get("intent");
  if (id === null || (intent !== "ok" && intent !== "cancel")) return data({ error: "Permintaan tidak valid." }, { status: 400 });
  const result = await settleWithdrawal(id, intent);
  await recordAudit(null, operator.id, result.ok ? "withdrawal-settled" : "withdrawal-refused", {
    withdrawalId: id,
    detail: result.ok ? intent : result.message,
  });
  flash(
    context,
    "toast",
    result.ok
      ? { type: "success", message: `Penarikan ${id}: ${intent === "ok" ? "Berhasil" : "Dibatalkan"}.` }
      : { type: "danger", message: `Penarikan ${id}: ${result.message}` },
  );
  throw redirect(`/ops/withdrawals${new URL(request.url).search}`);
}

export default function Withdrawals({ loaderData, actionData }: Route.ComponentProps) {
  const { items, page, pageCount, total } = loaderData;
  return (
    <>
      <p>
        <a href="/ops">‹ Antrean</a>
      </p>
      <h1>
        {TITLE} <span className="ops-muted">({total})</span>
      </h1>
      {actionData?.error ? (
        <p className="ops-alert" role="alert">
          {actionData.error}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="ops-card">Tidak ada penarikan yang menunggu.</p>
      ) : (
        <div className="ops-table-wrap">
          <table className="ops-table">
            <thead>
              <tr>
                <th>No.</th>
                <th>Pengguna</th>
                <th className="num">Jumlah</th>
                <th>Diajukan</th>
                <th>Menunggu</th>
                <th>Keputusan</th>
              </tr>
            </thead>
            <tbody>
              {items.map((w) => (
                <tr key={w.id} data-testid="withdrawal-row">
                  <td>{w.id}</td>
                  <td>
                    {w.fullname}
                    <br />
                    <span className="ops-muted">{w.email}</span>
                  </td>
                  <td className="num">{formatRupiah(w.amount)}</td>
                  <td>{w.createdAt}</td>
                  <td>{w.waiting}</td>
                  <td>
                    <Form method="post" style={{ display: "flex", gap: 8, flexWrap: "wrap" }}>
                      <input type="hidden" name="withdrawalId" value={w.id} />
                      <button type="submit" name="intent" value="ok" className="ops-btn">
                        Berhasil
                      </button>
                      <button type="submit" name="intent" value="cancel" className="ops-btn ops-btn-danger">
                        Dibatalkan
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} />
    </>
  );
}
