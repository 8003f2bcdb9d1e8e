import { useEffect } from "react";
import { EmailText } from "~/components/email-text";
import { data, Form, Link, useNavigate } from "react-router";
import type { Route } from "./+types/profile";
import { requireUser } from "~/.server/http/auth";
import { getHelpContacts, getProfile } from "~/.server/store/people";
import { EditIcon, HelpIcon, LogoutIcon, UserIcon } from "~/components/icons";
import { SubmitButton } from "~/components/submit-button";
import type { RouteHandle } from "~/lib/route-handle";
import { PRIVACY_POLICY_PATH } from "~/lib/privacy";

// The profile layout titles the page 'Akun'; this names the document.
export const handle: RouteHandle = { title: "Akun" };

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context);
  const profile = await getProfile(user.id);
  if (!profile) throw data("Not Found", { status: 404 });
  // The numbers an admin sets in /ops/settings (ADMIN_PHONE until then).
  const help = await getHelpContacts();
  return {
    profile: {
      fullname: profile.fullname,
      email: profile.email,
      phoneNo: profile.phoneNo,
      nip: profile.nip,
      companyName: profile.companyName,
    },
    // Without JavaScript the 'Bantuan' modal is this page with ?sheet=bantuan (DESIGN §5).
    showHelp: url.searchParams.get("sheet") === "bantuan",
    admin: { phone: help.phone, tel: `tel:${help.phone.replace(/[^\d+]/g, "")}`, chat: `https://wa.me/${whatsAppNumber(help.whatsapp)}` },
  };
}

/** wa.me wants the international number in digits only: "+62 811-…" or "0811-…" → "62811…". */
function whatsAppNumber(phone: string) {
  const digits = phone.replace(/\D/g, "");
  return digits.startsWith("0") ? `62${digits.slice(1)}` : digits;
}

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { profile, admin, showHelp } = loaderData;
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

      {showHelp ? <HelpSheet admin={admin} /> : null}
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

// Icons only this screen uses (same style as components/icons.tsx).
function smallIcon(path: React.ReactNode) {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {path}
    </svg>
  );
}
const ChevronIcon = () => smallIcon(<path d="M9 6l6 6-6 6" />);
const PhoneIcon = () =>
  smallIcon(
    <path d="M22 16.9v3a2 2 0 01-2.2 2 19.8 19.8 0 01-8.6-3.1 19.5 19.5 0 01-6-6A19.8 19.8 0 012.1 4.2 2 2 0 014.1 2h3a2 2 0 012 1.7c.1.9.4 1.8.7 2.7a2 2 0 01-.5 2.1L8 9.8a16 16 0 006 6l1.3-1.3a2 2 0 012.1-.4c.9.3 1.8.6 2.7.7a2 2 0 011.7 2z" />,
  );
const ChatIcon = () => smallIcon(<path d="M21 11.5a8.4 8.4 0 01-12.3 7.5L3 21l2-5.4A8.4 8.4 0 1121 11.5z" />);
