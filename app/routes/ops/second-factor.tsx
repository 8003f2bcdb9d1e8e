import QRCode from "qrcode";
import { data, Form, redirect, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/second-factor";
import { clientAddress, readForm } from "~/.server/http/request";
import { requireStaff } from "~/.server/http/ops-access";
import { getSessionId } from "~/.server/http/session";
import {
  claimSecondFactorAttempt,
  clearWrongSecondFactors,
  confirmEnrolment,
  getFactorState,
  markSecondFactorPassed,
  recordAudit,
  verifySecondFactor,
} from "~/.server/store/people";
import type { RouteHandle } from "~/lib/route-handle";

// /ops/2fa (issue 17): the operator's second factor. First time: enrol from the QR code or the key
// printed as text, confirm with one code, then the ten recovery codes, shown once. After that: one
// code from the app (or a recovery code) per session. Attempts count against limits per account
// and address (claimSecondFactorAttempt): failures from elsewhere never lock the operator out.

export const handle: RouteHandle = { title: "Verifikasi Dua Langkah" };

const CODE_REQUIRED = "Kode tidak boleh kosong.";

function tooMany(retryAfterSeconds: number) {
  return `Terlalu banyak percobaan kode. Coba lagi dalam ${Math.ceil(retryAfterSeconds / 60)} menit.`;
}

export async function loader({ context }: Route.LoaderArgs) {
  const operator = requireStaff(context, undefined, { secondFactor: false });
  if (operator.secondFactorPassed) throw redirect("/ops");
  const state = await getFactorState(operator.id, operator.email);
  if (state.enrolled) return { enrolled: true as const };
  // An image in the page itself (a data: URL): no script, no second request.
  const qr = await QRCode.toDataURL(state.uri, { errorCorrectionLevel: "M", margin: 2, width: 220 });
  return { enrolled: false as const, secret: state.secret.replace(/(.{4})/g, "$1 ").trim(), qr };
}

export async function action({ request, context }: Route.ActionArgs) {
  const operator = requireStaff(context, undefined, { secondFactor: false });
  if (operator.secondFactorPassed) throw redirect("/ops");
  const form = await readForm(request);
  const intent = form.get("intent");
  const code = String(form.get("code") ?? "")
    .trim()
    .slice(0, 40);
  if (!code) return data({ error: CODE_REQUIRED, recoveryCodes: null }, { status: 400 });

  const address = clientAddress(request);
  // Counted before the code is looked at (one atomic upsert each): parallel guesses cannot slip past.
  const refused = await claimSecondFactorAttempt(operator.id, address);
  if (refused) {
    await recordAudit(null, operator.id, "2fa-rate-limited", { address });
    return data({ error: tooMany(refused.retryAfterSeconds), recoveryCodes: null }, { status: 429 });
  }
  const wrong = async (detail?: string) => {
    await recordAudit(null, operator.id, "2fa-wrong-code", { detail, address });
  };

  const passed = async (action: "2fa-passed" | "2fa-recovery-code") => {
    await clearWrongSecondFactors(operator.id, address);
    await recordAudit(null, operator.id, action, { address });
    // The session was made fresh at the login (rotation); from now on it may use the back office.
    await markSecondFactorPassed(getSessionId(context)!);
  };

  if (intent === "enrol") {
    const enrolled = await confirmEnrolment(operator.id, operator.email, code);
    if (!enrolled.ok) {
      await wrong("enrolment");
      return data({ error: enrolled.message, recoveryCodes: null }, { status: 400 });
    }
    await passed("2fa-passed");
    // Shown once, in this answer only: the database keeps their hashes.
    return { error: null, recoveryCodes: enrolled.recoveryCodes };
  }

  const verified = await verifySecondFactor(operator.id, operator.email, code);
  if (!verified.ok) {
    await wrong();
    return data({ error: verified.message, recoveryCodes: null }, { status: 400 });
  }
  await passed(verified.usedRecoveryCode ? "2fa-recovery-code" : "2fa-passed");
  throw redirect("/ops");
}

/**
 * After the enrolment the page shows the recovery codes from the action's answer. With JavaScript,
 * React Router would reload this route's data next, and the loader (factor now passed) would send
 * the operator on to /ops before they could note the codes: not after that answer.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult && typeof actionResult === "object" && "recoveryCodes" in actionResult && actionResult.recoveryCodes
    ? false
    : defaultShouldRevalidate;

export default function SecondFactor({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData?.error ?? null;
  if (actionData?.recoveryCodes) {
    return (
      <section className="ops-card ops-narrow" data-testid="recovery-codes">
        <h1>Kode Pemulihan</h1>
        <p>
          Verifikasi dua langkah aktif. Simpan sepuluh kode pemulihan ini di tempat yang aman: masing-masing dapat dipakai{" "}
          <strong>satu kali</strong> jika aplikasi autentikator tidak tersedia. Kode ini hanya ditampilkan sekali.
        </p>
        <ul className="ops-codes">
          {actionData.recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <a className="ops-btn" href="/ops">
          Lanjut ke Back Office
        </a>
      </section>
    );
  }
  return (
    <section className="ops-card ops-narrow">
      <h1>Verifikasi Dua Langkah</h1>
      {loaderData.enrolled ? (
        <p>Masukkan kode 6 digit dari aplikasi autentikator Anda, atau salah satu kode pemulihan.</p>
      ) : (
        <>
          <p>
            Pindai kode QR ini dengan aplikasi autentikator (Google Authenticator, Microsoft Authenticator, Aegis, dan sebagainya), atau
            masukkan kuncinya secara manual.
          </p>
          <img className="ops-qr" src={loaderData.qr} alt="Kode QR untuk aplikasi autentikator" width={220} height={220} />
          <p>
            <span className="ops-muted">Kunci</span>
            <br />
            <code className="ops-secret" data-testid="totp-secret">
              {loaderData.secret}
            </code>
          </p>
          <p>Lalu masukkan kode 6 digit yang ditampilkan aplikasi untuk mengaktifkan verifikasi dua langkah.</p>
        </>
      )}
      <Form method="post" className="ops-form">
        <input type="hidden" name="intent" value={loaderData.enrolled ? "verify" : "enrol"} />
        {error ? (
          <p className="ops-alert" role="alert">
            {error}
          </p>
        ) : null}
        <label htmlFor="code">Kode</label>
        <input
          type="text"
          id="code"
          name="code"
          autoComplete="one-time-code"
          inputMode={loaderData.enrolled ? "text" : "numeric"}
          maxLength={20}
          aria-invalid={error ? true : undefined}
        />
        <button type="submit" className="ops-btn">
          {loaderData.enrolled ? "Verifikasi" : "Aktifkan"}
        </button>
      </Form>
    </section>
  );
}
