import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/link-requests";
import { requireStaff } from "~/.server/http/ops-access";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { pageParam } from "~/.server/store/back-office";
import { decideLinkRequest, LINK_QUEUE_PAGE_SIZE, listLinkRequests, unlinkRosterAccount } from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";
import { parseId } from "~/lib/ids";
import { OpsMessage, Pager } from "../components";

// /ops/employees/requests (issue 45 item 11, decision 0069): accounts that asked to be linked to a
// roster entry, oldest first, for the 'pegawai' operator. 'Setujui' links (the request waiting for
// the work e-mail too: the employee may have lost it), 'Tolak' refuses; an entry already linked to
// another account shows it, and 'Putuskan' releases that link when it is the wrong one. Audited.

const TITLE = "Permintaan Hubungkan Akun";
export const handle: RouteHandle = { title: TITLE };

export async function loader({ url }: Route.LoaderArgs) {
  const page = pageParam(url);
  const { rows, total } = await listLinkRequests(page);
  return { rows, total, page, pageCount: Math.max(1, Math.ceil(total / LINK_QUEUE_PAGE_SIZE)) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const back = `/ops/employees/requests${new URL(request.url).search}`;
  if (intent === "approve" || intent === "refuse") {
    const id = parseId(form.get("requestId"));
    if (!id) return data({ error: "Permintaan tidak valid." }, { status: 400 });
    const result = await decideLinkRequest(operator.id, id, intent);
    if (!result.ok) return data({ error: result.message }, { status: 409 });
    flash(context, "toast", { type: "success", message: intent === "approve" ? "Akun dihubungkan." : "Permintaan ditolak." });
    throw redirect(back);
  }
  if (intent === "unlink") {
    const entryId = parseId(form.get("entryId"));
    if (!entryId) return data({ error: "Permintaan tidak valid." }, { status: 400 });
    const result = await unlinkRosterAccount(operator.id, entryId);
    if (!result.ok) return data({ error: result.message }, { status: 409 });
    flash(context, "toast", { type: "success", message: "Akun diputus dari data pegawai." });
    throw redirect(back);
  }
  return data({ error: "Permintaan tidak valid." }, { status: 400 });
}

export default function LinkRequests({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, page, pageCount } = loaderData;
  return (
    <>
      <h1>{TITLE}</h1>
      <p>
        <a href="/ops/employees">‹ Daftar Pegawai</a>
      </p>
      <OpsMessage error={actionData?.error} />
      <section className="ops-card" aria-labelledby="requests-title">
        <h2 id="requests-title">Menunggu Keputusan</h2>
        <p className="ops-muted" data-testid="link-requests-total">
          {total.toLocaleString("id-ID")} permintaan. Setujui hanya jika Anda yakin akun itu milik pegawai tersebut (mis. dicek lewat atasan
          atau email kantor); nama yang tidak cocok ditandai.
        </p>
        {rows.length ? (
          <div className="ops-table-wrap">
            <table className="ops-table">
              <thead>
                <tr>
                  <th scope="col">Data Pegawai</th>
                  <th scope="col">Akun yang Meminta</th>
                  <th scope="col">Status</th>
                  <th scope="col">Keputusan</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} data-testid="link-request">
                    <td>
                      {r.companyName}
                      <br />
                      NIP {r.nip}: {r.rosterName}
                    </td>
                    <td className="ops-wrap-anywhere" data-testid="request-account">
                      {r.accountEmail}{" "}
                      <span className="ops-muted">({r.verified ? "email terverifikasi" : "email belum diverifikasi"})</span>
                      <br />
                      {r.accountName} {r.nameMatches ? null : <strong data-testid="name-mismatch">(nama tidak cocok)</strong>}
                    </td>
                    <td>
                      {r.route === "email" ? "Menunggu konfirmasi email kantor" : "Menunggu konfirmasi petugas"}
                      {r.heldBy ? (
                        <Form method="post" className="ops-inline-form">
                          <input type="hidden" name="entryId" value={r.entryId} />
                          <span className="ops-wrap-anywhere" data-testid="held-by">
                            Sudah terhubung dengan {r.heldBy}
                          </span>
                          <button type="submit" name="intent" value="unlink" className="ops-btn ops-btn-secondary">
                            Putuskan<span className="ops-sr-only"> {r.heldBy}</span>
                          </button>
                        </Form>
                      ) : null}
                    </td>
                    <td>
                      <Form method="post" className="ops-inline-form">
                        <input type="hidden" name="requestId" value={r.id} />
                        <button type="submit" name="intent" value="approve" className="ops-btn">
                          Setujui<span className="ops-sr-only"> {r.accountEmail}</span>
                        </button>
                        <button type="submit" name="intent" value="refuse" className="ops-btn ops-btn-danger">
                          Tolak<span className="ops-sr-only"> {r.accountEmail}</span>
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="ops-muted">Tidak ada permintaan.</p>
        )}
        <Pager page={page} pageCount={pageCount} />
      </section>
    </>
  );
}
