import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useNavigate } from "react-router";
import { EmailText } from "~/components/email-text";
import type { Route } from "./+types/profile";
import { endSession, requireUser } from "~/.server/http/auth";
import { readForm } from "~/.server/http/request";
import { flash } from "~/.server/http/session";
import { getBalance } from "~/.server/store/orders";
import { getHelpContacts, getProfile } from "~/.server/store/people";
import { dataExportOf, eraseAccount, latestDataExport, requestDataExport } from "~/.server/store/privacy";
import { EditIcon, HelpIcon, LogoutIcon, svg, UserIcon, WalletIcon } from "~/components/icons";
import { SubmitButton } from "~/components/submit-button";
import type { RouteHandle } from "~/lib/route-handle";
import { formatRupiah } from "~/lib/money";
import { PRIVACY_POLICY_PATH } from "~/lib/privacy";
import { DATA_EXPORT_HOURS, DATA_EXPORT_PARAM, DATA_SECTION_ID } from "~/lib/data-export-link";

// The profile layout titles the page 'Akun'; this names the document.
export const handle: RouteHandle = { title: "Akun" };

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const profile = await getProfile(user.id);
  if (!profile) throw data("Not Found", { status: 404 });
  // The numbers an admin sets in /ops/settings (ADMIN_PHONE until then).
  const help = await getHelpContacts();
  // ?unduh=<id>: the e-mailed 'Unduh Data Saya' link, after the login it asked for (issue 43 item 2):
  // that export is offered here; if it is gone (past its 24 hours, another account's) this says so.
  const wanted = url.searchParams.get(DATA_EXPORT_PARAM);
  const linked = wanted === null ? null : await dataExportOf(user.id, wanted);
  const dataExport = linked ?? (await latestDataExport(user.id));
  // The balance (rewards to withdraw) and its history are reached from here, not only from the
  // one-time 'Pesanan Selesai' sheet's 'Cek Saldo' (issue 38).
  const balance = await getBalance(user.id);
  return {
    balance: formatRupiah(balance),
    profile: {
      fullname: profile.fullname,
      email: profile.email,
      phoneNo: profile.phoneNo,
      nip: profile.nip,
      companyName: profile.companyName,
    },
    // Without JavaScript the 'Bantuan' modal is this page with ?sheet=bantuan (DESIGN §5).
    showHelp: url.searchParams.get("sheet") === "bantuan",
    showErase: url.searchParams.get("sheet") === ERASE_SHEET,
    dataExport: dataExport && {
      link: dataExport.link,
      expiresAt: dataExport.expiresAt.toLocaleString("id-ID", { timeZone: "Asia/Jakarta", dateStyle: "long", timeStyle: "short" }),
    },
    dataLinkGone: wanted !== null && !linked,
    admin: { phone: help.phone, tel: `tel:${help.phone.replace(/[^\d+]/g, "")}`, chat: `https://wa.me/${whatsAppNumber(help.whatsapp)}` },
  };
}

// Without JavaScript the 'Hapus Akun' confirmation is this page with ?sheet=hapus-akun, like 'Bantuan'.
const ERASE_SHEET = "hapus-akun";

/**
 * Issue 35 item 4: 'Unduh Data Saya' (a job builds the ZIP and e-mails its link) and 'Hapus Akun'
 * (the password again; the store refuses while an order is open or money is due). After the erasure
 * the session is gone: the browser is signed out and told on /login.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "unduh-data") {
    await requestDataExport(user.id);
    flash(context, "toast", {
      type: "success",
      message: `Permintaan diterima. Tautan unduhan akan dikirim ke email Anda dan tampil di halaman ini (berlaku ${DATA_EXPORT_HOURS} jam).`,
    });
    return redirect("/profile");
  }
  if (intent === "hapus-akun") {
    const password = form.get("password");
    const erased = await eraseAccount(user.id, typeof password === "string" ? password : "");
    // The password is never sent back: the form re-renders empty with the reason.
    // A refusal for an open refund links its order (where the bank details are sent, issue 43 item 7).
    if (!erased.ok)
      return data({ eraseError: erased.message, field: erased.field ?? null, orderId: erased.orderId ?? null }, { status: 400 });
    await endSession(context);
    flash(context, "toast", { type: "success", message: "Akun Anda telah dihapus. Terima kasih telah berbelanja di Toko Pegawai PLN." });
    return redirect("/login");
  }
  return data({ eraseError: "Permintaan tidak dikenal.", field: null, orderId: null }, { status: 400 });
}

/** wa.me wants the international number in digits only: "+62 811-…" or "0811-…" → "62811…". */
function whatsAppNumber(phone: string) {
  const digits = phone.replace(/\D/g, "");
  return digits.startsWith("0") ? `62${digits.slice(1)}` : digits;
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, balance, admin, showHelp, showErase, dataExport, dataLinkGone } = loaderData;
  return (
    <>
      <section className="card profile-card" aria-label="Data akun">
        <div className="profile-head">
          <span className="profile-avatar" aria-hidden="true">
            <UserIcon size={28} />
          </span>
          <div className="profile-who">
            <h2 className="profile-name">{profile.fullname}</h2>
            <p className="profile-email">
              <EmailText email={profile.email} />
            </p>
          </div>
          <Link to="/edit-profile" className="icon-button" aria-label="Ubah Profil">
            <EditIcon size={20} />
          </Link>
        </div>
        <dl className="profile-facts">
          <div>
            <dt>NIP</dt>
            <dd data-testid="profile-nip">{profile.nip}</dd>
          </div>
          <div>
            <dt>Perusahaan</dt>
            <dd data-testid="profile-company">{profile.companyName}</dd>
          </div>
          <div>
            <dt>Nomor HP</dt>
            <dd data-testid="profile-phone">{profile.phoneNo}</dd>
          </div>
        </dl>
      </section>

      <nav className="card menu-list" aria-label="Menu akun">
        <Link to="/history-balance" className="menu-item" data-testid="balance-link">
          <WalletIcon size={20} />
          <span>Riwayat Saldo</span>
          <span className="menu-item-value" data-testid="profile-balance">
            {balance}
          </span>
          <ChevronIcon />
        </Link>
        <Link to="?sheet=bantuan" className="menu-item" preventScrollReset>
          <HelpIcon size={20} />
          <span>Bantuan</span>
          <ChevronIcon />
        </Link>
        <Link to={PRIVACY_POLICY_PATH} className="menu-item" data-testid="privacy-policy-link">
          <HelpIcon size={20} />
          <span>Kebijakan Privasi</span>
          <ChevronIcon />
        </Link>
        <Form method="post" action="/logout" className="menu-form">
          <SubmitButton className="menu-item menu-item-danger">
            <LogoutIcon size={20} />
            <span>Keluar</span>
          </SubmitButton>
        </Form>
      </nav>

      <section className="card data-rights" id={DATA_SECTION_ID} aria-labelledby="data-rights-title" data-testid="data-rights">
        <h2 id="data-rights-title" className="card-title">
          Data Saya
        </h2>
        <p className="muted">Anda dapat meminta salinan data akun Anda, atau menghapus akun Anda beserta data pribadinya.</p>
        {dataLinkGone ? (
          <p className="form-error" role="alert" data-testid="data-export-gone">
            Tautan unduhan dari email Anda sudah tidak berlaku (tautan berlaku {DATA_EXPORT_HOURS} jam dan hanya untuk akun yang
            memintanya). Tekan Unduh Data Saya untuk meminta salinan baru.
          </p>
        ) : null}
        {dataExport ? (
          dataExport.link ? (
            // A full-size button (it was an 18 px line of text, issue 43 item 7), the expiry under it.
            <div className="data-export-ready" data-testid="data-export-ready">
              <p>Data Anda siap diunduh (berlaku sampai {dataExport.expiresAt} WIB).</p>
              <a href={dataExport.link} download className="btn btn-primary btn-block">
                Unduh berkas ZIP
              </a>
            </div>
          ) : (
            <p data-testid="data-export-pending">
              Data Anda sedang disiapkan. Tautan unduhan akan dikirim ke email Anda dan tampil di sini.
            </p>
          )
        ) : null}
        {/* Two separate buttons with room between them; the irreversible one in the danger colour. */}
        <div className="data-rights-actions">
          <Form method="post" action="/profile" className="menu-form">
            <input type="hidden" name="intent" value="unduh-data" />
            <SubmitButton className="btn btn-outline btn-block">Unduh Data Saya</SubmitButton>
          </Form>
          <Link to={`?sheet=${ERASE_SHEET}`} className="btn btn-danger btn-block" preventScrollReset>
            Hapus Akun
          </Link>
        </div>
      </section>

      {showHelp ? <HelpSheet admin={admin} /> : null}
      {showErase || actionData?.eraseError ? <EraseSheet answer={actionData ?? null} /> : null}
    </>
  );
}

/** Spec §2: the 'Bantuan' modal — the admin's phone and chat; NIP changes go through the admin. */
function HelpSheet({ admin }: { admin: { phone: string; tel: string; chat: string } }) {
  const navigate = useNavigate();
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate("/profile", { preventScrollReset: true });
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [navigate]);
  return (
    <div className="modal-backdrop">
      <div className="modal help-sheet" role="dialog" aria-modal="true" aria-labelledby="help-title">
        <h2 id="help-title">Bantuan</h2>
        <p>
          Butuh bantuan? Hubungi admin Toko Pegawai PLN di <span className="nowrap">{admin.phone}</span>.
        </p>
        <p className="muted">NIP hanya dapat diubah oleh admin. Untuk mengubah NIP, silakan hubungi admin.</p>
        <a className="btn btn-outline btn-block" href={admin.tel}>
          <PhoneIcon />
          {/* One unbroken label: a telephone link's text keeps together (html-validate tel-non-breaking). */}
          {"Telepon\u00a0Admin"}
        </a>
        <a className="btn btn-outline btn-block" href={admin.chat} target="_blank" rel="noopener noreferrer">
          <ChatIcon />
          Chat Admin (WhatsApp)
        </a>
        <Link className="btn btn-primary btn-block" to="/profile" preventScrollReset autoFocus>
          Tutup
        </Link>
      </div>
    </div>
  );
}

/** 'Hapus Akun': what goes, what stays, and the password again. A plain form (works without JavaScript). */
function EraseSheet({ answer }: { answer: { eraseError: string; orderId: number | null } | null }) {
  const error = answer?.eraseError ?? null;
  // With JavaScript the page is not reloaded: each answer empties the password field, as the
  // server-rendered page does without it (a password is never kept).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (answer) form.current?.reset();
  }, [answer]);
  return (
    <div className="modal-backdrop">
      <div className="modal help-sheet" role="dialog" aria-modal="true" aria-labelledby="erase-title">
        <h2 id="erase-title">Hapus Akun</h2>
        <p>
          Nama, email, nomor HP, NIP, alamat, NIK, foto KTP dan nomor rekening pengembalian dana Anda akan dihapus, dan Anda akan keluar
          dari semua perangkat. Akun yang sudah dihapus tidak dapat dikembalikan.
        </p>
        <p className="muted">
          Catatan transaksi pesanan (nilai, status, pembayaran) tetap disimpan tanpa identitas Anda selama 10 tahun, sesuai kewajiban
          perpajakan.
        </p>
        <Form method="post" action={`/profile?sheet=${ERASE_SHEET}`} ref={form}>
          <input type="hidden" name="intent" value="hapus-akun" />
          {error ? (
            <div className="form-error" role="alert" data-testid="erase-error">
              {error}
              {answer?.orderId ? (
                <>
                  {" "}
                  <Link to={`/transaction-detail/${answer.orderId}`}>Lihat Detail Pesanan</Link>
                </>
              ) : null}
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="erase-password">Kata Sandi</label>
            <input id="erase-password" name="password" type="password" autoComplete="current-password" required autoFocus />
          </div>
          {/* Irreversible: the danger colour, never the ordinary blue of a primary action. */}
          <SubmitButton className="btn btn-danger-solid btn-block">Hapus Akun</SubmitButton>
        </Form>
        <Link className="btn btn-outline btn-block" to="/profile" preventScrollReset>
          Batal
        </Link>
      </div>
    </div>
  );
}

// Icons only this screen uses, drawn by the one icon wrapper.
const smallIcon = (path: React.ReactNode) => svg(path, { size: 18 });
const ChevronIcon = () => smallIcon(<path d="M9 6l6 6-6 6" />);
const PhoneIcon = () =>
  smallIcon(
    <path d="M22 16.9v3a2 2 0 01-2.2 2 19.8 19.8 0 01-8.6-3.1 19.5 19.5 0 01-6-6A19.8 19.8 0 012.1 4.2 2 2 0 014.1 2h3a2 2 0 012 1.7c.1.9.4 1.8.7 2.7a2 2 0 01-.5 2.1L8 9.8a16 16 0 006 6l1.3-1.3a2 2 0 012.1-.4c.9.3 1.8.6 2.7.7a2 2 0 011.7 2z" />,
  );
const ChatIcon = () => smallIcon(<path d="M21 11.5a8.4 8.4 0 01-12.3 7.5L3 21l2-5.4A8.4 8.4 0 1121 11.5z" />);
