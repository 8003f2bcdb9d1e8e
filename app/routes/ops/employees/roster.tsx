import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/roster";
import { requireStaff } from "~/.server/http/ops-access";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { CSV_NOT_TEXT, csvText } from "~/.server/csv";
import { getStagedCsvImport, markCsvImportApplied, pageParam, stageCsvImport } from "~/.server/store/back-office";
import {
  applyRosterImport,
  listCompanyRosters,
  linkRosterAccount,
  listRoster,
  previewRosterImport,
  rosterCandidates,
  unlinkRosterAccount,
  ROSTER_COLUMNS,
  ROSTER_MAX_BYTES,
  ROSTER_PAGE_SIZE,
  type RosterImportPreview,
  updateRosterEntry,
} from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";
import { CsvUploadForm, InputField, OpsMessage, Pager } from "../components";
import { parseId } from "~/lib/ids";

// /ops/employees ('Pegawai', issue 27): each company's roster from its HR export. 'Unggah CSV' keeps
// the file (csv_imports) and shows what 'Terapkan Impor' would do; the apply is one transaction.
// A company's list is searched and paged on the server; one entry is edited or deactivated here.

const TITLE = "Daftar Pegawai";
export const handle: RouteHandle = { title: TITLE };

const idParam = parseId;

export async function loader({ url }: Route.LoaderArgs) {
  const companies = await listCompanyRosters();
  const companyId =
    idParam(url.searchParams.get("company")) ?? companies.find((c) => c.active + c.inactive > 0)?.id ?? companies[0]?.id ?? null;
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const page = pageParam(url);
  const roster = companyId ? await listRoster(companyId, q, page) : { rows: [], total: 0 };
  // Accounts that registered with a free entry's NIP: the operator links one ('Hubungkan'); the
  // import never does (issue 35: the first to register with a NIP may not be the employee).
  const candidates = await rosterCandidates(roster.rows.filter((r) => r.accountEmail === null).map((r) => r.id));
  return {
    companies,
    companyId,
    q,
    page,
    pageCount: Math.max(1, Math.ceil(roster.total / ROSTER_PAGE_SIZE)),
    total: roster.total,
    rows: roster.rows.map((r) => ({ ...r, candidates: candidates.filter((c) => c.entryId === r.id) })),
    editId: idParam(url.searchParams.get("edit")),
    columns: ROSTER_COLUMNS.join(","),
  };
}

type ActionData = {
  error?: string;
  preview?: RosterImportPreview & { ok: true };
  importId?: string;
  fileName?: string;
  deactivateMissing?: boolean;
  edit?: { id: number; error: string; name: string };
};

export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireStaff(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const back = new URL(request.url).search;

  if (intent === "upload") {
    const file = form.get("file");
    const deactivateMissing = form.get("deactivateMissing") === "on";
    if (!(file instanceof File) || file.size === 0) return data<ActionData>({ error: "Pilih file CSV terlebih dahulu." }, { status: 400 });
    if (file.size > ROSTER_MAX_BYTES)
      return data<ActionData>(
        { error: `File CSV terlalu besar (maksimal ${Math.round(ROSTER_MAX_BYTES / 1024 / 1024)} MB).` },
        { status: 400 },
      );
    const bytes = Buffer.from(await file.arrayBuffer());
    // UTF-8, or Excel's plain CSV (Windows-1252): kept as text, so the preview and 'Terapkan' read the same.
    const content = csvText(bytes);
    if (content === null) return data<ActionData>({ error: CSV_NOT_TEXT }, { status: 400 });
    const preview = await previewRosterImport(content, { deactivateMissing });
    if (!preview.ok) return data<ActionData>({ error: preview.message }, { status: 400 });
    const importId = await stageCsvImport("pegawai", operator.id, file.name, content);
    return data<ActionData>({ preview, importId, fileName: file.name, deactivateMissing });
  }

  if (intent === "apply") {
    const staged = await getStagedCsvImport(String(form.get("importId") ?? ""), "pegawai", operator.id);
    if (!staged) return data<ActionData>({ error: "File impor tidak ditemukan. Unggah ulang file CSV." }, { status: 404 });
    if (staged.appliedAt) return data<ActionData>({ error: `Impor ini sudah diterapkan: ${staged.summary ?? ""}` }, { status: 409 });
    const applied = await applyRosterImport(staged.content, { deactivateMissing: form.get("deactivateMissing") === "on" }, operator.id);
    if (!applied.ok) return data<ActionData>({ error: applied.message }, { status: 400 });
    await markCsvImportApplied(staged.id, applied.summary);
    flash(context, "toast", { type: "success", message: `Impor diterapkan: ${applied.summary}.` });
    throw redirect(back ? `/ops/employees${back}` : "/ops/employees");
  }

  if (intent === "link" || intent === "unlink") {
    const id = idParam(form.get("entryId"));
    const userId = idParam(form.get("userId"));
    if (!id || (intent === "link" && !userId)) return data<ActionData>({ error: "Permintaan tidak valid." }, { status: 400 });
    const result = intent === "link" ? await linkRosterAccount(operator.id, id, userId!) : await unlinkRosterAccount(operator.id, id);
    if (!result.ok) return data<ActionData>({ error: result.message }, { status: 409 });
    flash(context, "toast", { type: "success", message: intent === "link" ? "Akun dihubungkan." : "Akun diputus dari data pegawai." });
    throw redirect(`/ops/employees${back}`);
  }

  if (intent === "edit" || intent === "deactivate" || intent === "activate") {
    const id = idParam(form.get("entryId"));
    if (!id) return data<ActionData>({ error: "Permintaan tidak valid." }, { status: 400 });
    const name = String(form.get("name") ?? "");
    const status =
      intent === "deactivate" ? "nonaktif" : intent === "activate" ? "aktif" : form.get("status") === "nonaktif" ? "nonaktif" : "aktif";
    const result = await updateRosterEntry(operator.id, id, intent === "edit" ? { name, status } : { status });
    if (!result.ok)
      return data<ActionData>(result.field ? { edit: { id, error: result.message, name } } : { error: result.message }, { status: 400 });
    flash(context, "toast", { type: "success", message: intent === "deactivate" ? "Pegawai dinonaktifkan." : "Data pegawai disimpan." });
    const params = new URLSearchParams(back);
    params.delete("edit");
    throw redirect(`/ops/employees?${params.toString()}`);
  }
  return data<ActionData>({ error: "Permintaan tidak valid." }, { status: 400 });
}

export default function Roster({ loaderData, actionData }: Route.ComponentProps) {
  const { companies, companyId, q, page, pageCount, total, rows, editId, columns } = loaderData;
  const company = companies.find((c) => c.id === companyId);
  const search = new URLSearchParams({ ...(companyId ? { company: String(companyId) } : {}), ...(q ? { q } : {}) }).toString();
  const editing = actionData?.edit?.id ?? editId;
  return (
    <>
      <h1>{TITLE}</h1>
      <p>
        <a href="/ops/employees/requests">Permintaan hubungkan akun ›</a> · <a href="/ops/accounts">Akun pembeli dan status HR ›</a>
      </p>
      <OpsMessage error={actionData?.error} />

      {actionData?.preview && actionData.importId ? (
        <section className="ops-card" aria-labelledby="preview-title" data-testid="roster-preview">
          <h2 id="preview-title">Pratinjau Impor: {actionData.fileName}</h2>
          <p className="ops-muted">
            {actionData.preview.rows.toLocaleString("id-ID")} baris untuk {actionData.preview.companies.join(", ") || "-"}
            {actionData.deactivateMissing ? " · Nonaktifkan yang tidak ada di file" : ""}
          </p>
          <ul className="ops-counts">
            <li data-testid="count-add">{actionData.preview.toAdd.toLocaleString("id-ID")} akan ditambah</li>
            <li data-testid="count-update">{actionData.preview.toUpdate.toLocaleString("id-ID")} akan diubah</li>
            <li data-testid="count-deactivate">{actionData.preview.toDeactivate.toLocaleString("id-ID")} akan dinonaktifkan</li>
          </ul>
          {actionData.preview.problemCount > 0 ? (
            <>
              <p className="ops-alert" role="alert">
                {actionData.preview.problemCount.toLocaleString("id-ID")} baris salah. Perbaiki file lalu unggah ulang.
                {actionData.preview.problemCount > actionData.preview.problems.length
                  ? ` (${actionData.preview.problems.length} pertama ditampilkan)`
                  : ""}
              </p>
              <ul className="ops-problems" data-testid="roster-problems">
                {actionData.preview.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="apply" />
              <input type="hidden" name="importId" value={actionData.importId} />
              {actionData.deactivateMissing ? <input type="hidden" name="deactivateMissing" value="on" /> : null}
              <button type="submit" className="ops-btn">
                Terapkan Impor
              </button>
            </Form>
          )}
        </section>
      ) : null}

      <section className="ops-card" aria-labelledby="upload-title">
        <h2 id="upload-title">Unggah CSV</h2>
        <p className="ops-muted">
          Kolom: <code>{columns}</code> (koma atau titik koma). <code>perusahaan</code> sesuai nama di daftar perusahaan;{" "}
          <code>status</code> aktif atau nonaktif; <code>email_kantor</code> (boleh tidak ada): ke sana tautan konfirmasi akun dikirim.
        </p>
        <CsvUploadForm inputId="roster-file">
          <label className="ops-check">
            <input type="checkbox" name="deactivateMissing" /> Nonaktifkan yang tidak ada di file
          </label>
        </CsvUploadForm>
      </section>

      <section className="ops-card" aria-labelledby="list-title">
        <h2 id="list-title">Pegawai per Perusahaan</h2>
        {/* The select and the search field show the company and words of the list below, never what the
            form held before (issue 38): keyed by them for React's navigations (an applied import, Back),
            autoComplete off so a browser going Back without JavaScript does not restore a choice made
            on this page before it was left. */}
        <form method="get" className="ops-inline-form" key={`${companyId ?? ""}|${q}`} autoComplete="off">
          <div className="ops-field">
            <label htmlFor="roster-company">Perusahaan</label>
            <select id="roster-company" name="company" defaultValue={companyId ?? ""}>
              {companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.active} aktif, {c.inactive} nonaktif)
                </option>
              ))}
            </select>
          </div>
          <div className="ops-field">
            <label htmlFor="roster-q">Cari NIP atau nama</label>
            <input id="roster-q" type="search" name="q" defaultValue={q} maxLength={100} />
          </div>
          <button type="submit" className="ops-btn ops-btn-secondary">
            Tampilkan
          </button>
        </form>
        <p className="ops-muted" data-testid="roster-total">
          {company ? `${company.name}: ` : ""}
          {total.toLocaleString("id-ID")} pegawai{q ? ` cocok dengan "${q}"` : ""}
          {company && company.active + company.inactive === 0
            ? " — perusahaan ini belum memuat daftar pegawai (akunnya: Belum terverifikasi HR)."
            : ""}
        </p>
        {rows.length ? (
          <div className="ops-table-wrap">
            <table className="ops-table">
              <thead>
                <tr>
                  <th scope="col">NIP</th>
                  <th scope="col">Nama</th>
                  <th scope="col">Status</th>
                  <th scope="col">Akun</th>
                  <th scope="col">Ubah</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} data-testid="roster-row">
                    <td>{r.nip}</td>
                    <td>
                      {editing === r.id ? (
                        <Form method="post" className="ops-inline-form" id={`edit-${r.id}`}>
                          <input type="hidden" name="intent" value="edit" />
                          <input type="hidden" name="entryId" value={r.id} />
                          <InputField
                            name="name"
                            id={`name-${r.id}`}
                            label="Nama"
                            defaultValue={actionData?.edit?.name ?? r.name}
                            error={actionData?.edit?.error}
                            maxLength={200}
                          />
                          <label htmlFor={`status-${r.id}`}>Status</label>
                          <select id={`status-${r.id}`} name="status" defaultValue={r.status}>
                            <option value="aktif">Aktif</option>
                            <option value="nonaktif">Nonaktif</option>
                          </select>
                          <button type="submit" className="ops-btn">
                            Simpan
                          </button>
                        </Form>
                      ) : (
                        r.name
                      )}
                    </td>
                    <td data-testid="roster-status">{r.status === "aktif" ? "Aktif" : "Nonaktif"}</td>
                    <td className="ops-wrap-anywhere">
                      {r.accountEmail ? (
                        <Form method="post" className="ops-inline-form">
                          <input type="hidden" name="entryId" value={r.id} />
                          <span>{r.accountEmail}</span>
                          <button type="submit" name="intent" value="unlink" className="ops-btn ops-btn-secondary">
                            Putuskan<span className="ops-sr-only"> {r.nip}</span>
                          </button>
                        </Form>
                      ) : r.candidates.length ? (
                        r.candidates.map((c) => (
                          <Form method="post" className="ops-inline-form" key={c.userId}>
                            <input type="hidden" name="entryId" value={r.id} />
                            <input type="hidden" name="userId" value={c.userId} />
                            <span>
                              {c.email}{" "}
                              <span className="ops-muted">({c.verified ? "email terverifikasi" : "email belum diverifikasi"})</span>
                            </span>
                            <button type="submit" name="intent" value="link" className="ops-btn ops-btn-secondary">
                              Hubungkan<span className="ops-sr-only"> {c.email}</span>
                            </button>
                          </Form>
                        ))
                      ) : (
                        <span className="ops-muted">Belum mendaftar</span>
                      )}
                    </td>
                    <td>
                      <div className="ops-inline-form">
                        {editing === r.id ? null : (
                          <a className="ops-btn ops-btn-secondary" href={`?${search}${search ? "&" : ""}page=${page}&edit=${r.id}`}>
                            Ubah<span className="ops-sr-only"> {r.nip}</span>
                          </a>
                        )}
                        <Form method="post">
                          <input type="hidden" name="entryId" value={r.id} />
                          {r.status === "aktif" ? (
                            <button type="submit" name="intent" value="deactivate" className="ops-btn ops-btn-danger">
                              Nonaktifkan<span className="ops-sr-only"> {r.nip}</span>
                            </button>
                          ) : (
                            <button type="submit" name="intent" value="activate" className="ops-btn ops-btn-secondary">
                              Aktifkan<span className="ops-sr-only"> {r.nip}</span>
                            </button>
                          )}
                        </Form>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <Pager page={page} pageCount={pageCount} search={search} />
      </section>
    </>
  );
}
