import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/messages";
import { readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { formatAge, formatWhen } from "~/.server/store/back-office";
import { flash } from "~/.server/http/session";
import { listUndeliveredMessages, type MessageQueue, type MessageStatus, resendMessage } from "~/.server/store/messages";
import { recordAudit } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";

// /ops/messages (issue 28 item 2): the e-mails and SMS not delivered yet — waiting, waiting for a
// retry after a failed try (with its error), failed for good (no try left: a dead letter) — and
// 'Kirim Ulang' for a failed one. Finance and admins (the 'keuangan' role). Never the content: an
// SMS holds a one-time code.

const TITLE = "Pesan";
export const handle: RouteHandle = { title: TITLE };

const STATUS_LABEL: Record<MessageStatus, string> = { waiting: "Menunggu", retrying: "Dicoba ulang", failed: "Gagal" };
const KIND_LABEL: Record<string, string> = {
  "order-event": "E-mail status pesanan",
  "payment-reminder": "E-mail pengingat pembayaran",
  verification: "E-mail aktivasi akun",
  "already-registered": "E-mail akun sudah terdaftar",
  "password-reset": "E-mail atur ulang kata sandi",
  sms: "SMS kode OTP",
};
const FILTERS = [null, "waiting", "retrying", "failed"] as const;

function statusFilter(url: URL): MessageStatus | null {
  const wanted = url.searchParams.get("status");
  return FILTERS.find((f) => f === wanted) ?? null;
}

export async function loader({ url }: Route.LoaderArgs) {
  const filter = statusFilter(url);
  const rows = await listUndeliveredMessages(filter);
  const now = new Date();
  return {
    filter,
    rows: rows.map((row) => ({
      ...row,
      kind: KIND_LABEL[row.kind] ?? row.kind,
      statusLabel: STATUS_LABEL[row.status],
      createdAt: formatWhen(row.createdAt),
      waiting: formatAge(row.createdAt, now),
      nextTryAt: row.nextTryAt ? formatWhen(row.nextTryAt) : null,
    })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  const id = String(form.get("jobId") ?? "");
  const queue = String(form.get("queue") ?? "") as MessageQueue;
  if (form.get("intent") !== "resend" || !/^[0-9a-f-]{36}$/i.test(id) || (queue !== "mail" && queue !== "sms"))
    return data({ error: "Permintaan tidak valid." }, { status: 400 });
  const resent = await resendMessage(queue, id);
  await recordAudit(null, operator.id, resent ? "message-resent" : "message-resend-refused", { detail: `${queue}:${id}` });
  flash(
    context,
    "toast",
    resent
      ? { type: "success", message: "Pesan dijadwalkan untuk dikirim ulang." }
      : { type: "danger", message: "Pesan ini tidak dapat dikirim ulang: sudah terkirim atau sudah dijadwalkan ulang." },
  );
  throw redirect(`/ops/messages${new URL(request.url).search}`);
}

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, filter } = loaderData;
  return (
    <>
      <h1>
        {TITLE} <span className="ops-muted">({rows.length})</span>
      </h1>
      <p className="ops-muted">
        E-mail dan SMS yang belum terkirim. Yang gagal sementara dicoba ulang otomatis hingga 5 kali dalam sekitar satu jam; setelah itu
        statusnya Gagal.
      </p>
      <nav className="ops-filters" aria-label="Saring status">
        {FILTERS.map((f) => (
          <a key={f ?? "all"} href={f ? `/ops/messages?status=${f}` : "/ops/messages"} aria-current={f === filter ? "page" : undefined}>
            {f ? STATUS_LABEL[f] : "Semua"}
          </a>
        ))}
      </nav>
      {actionData?.error ? (
        <p className="ops-alert" role="alert">
          {actionData.error}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="ops-card" data-testid="messages-empty">
          Semua pesan sudah terkirim.
        </p>
      ) : (
        <div className="ops-table-wrap">
          <table className="ops-table">
            <thead>
              <tr>
                <th>Pesan</th>
                <th>Status</th>
                <th className="num">Percobaan</th>
                <th>Kesalahan terakhir</th>
                <th>Dibuat</th>
                <th>Aksi</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="message-row">
                  <td>
                    {row.kind}
                    <br />
                    <span className="ops-muted">{row.id.slice(0, 8)}</span>
                  </td>
                  <td>
                    {row.statusLabel}
                    {row.nextTryAt ? <span className="ops-muted"> · berikutnya {row.nextTryAt}</span> : null}
                  </td>
                  <td className="num">{row.attempts}</td>
                  <td>{row.lastError ?? "-"}</td>
                  <td>
                    {row.createdAt}
                    <br />
                    <span className="ops-muted">{row.waiting}</span>
                  </td>
                  <td>
                    {row.status === "failed" ? (
                      <Form method="post">
                        <input type="hidden" name="jobId" value={row.id} />
                        <input type="hidden" name="queue" value={row.queue} />
                        <button type="submit" name="intent" value="resend" className="ops-btn">
                          Kirim Ulang
                        </button>
                      </Form>
                    ) : (
                      "-"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
