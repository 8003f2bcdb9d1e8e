import { useState } from "react";
import { Form, useLocation } from "react-router";
import { Countdown } from "./countdown";
import { SubmitButton } from "./submit-button";
import { formatClockWib } from "~/lib/time";

/**
 * Spec §1: shown to a signed-in user whose account is not verified yet. 'Kirim Ulang' posts a resend;
 * during the one-hour wait it reads 'Kirim ulang dalam {time}'.
 */
export function ActivationBanner({ resendAvailableAt, renderedAt }: { resendAvailableAt: string | null; renderedAt: string }) {
  const location = useLocation();
  const [waitOver, setWaitOver] = useState(false);
  const waiting = !waitOver && resendAvailableAt !== null && Date.parse(resendAvailableAt) > Date.parse(renderedAt);
  return (
    <div className="activation-banner" role="note">
      <p>Segera lakukan Aktivasi Akun melalui email untuk dapat mulai bertransaksi</p>
      {waiting ? (
        <p className="activation-wait">
          Kirim ulang dalam <Countdown until={resendAvailableAt!} renderedAt={renderedAt} onDone={() => setWaitOver(true)} />
          {/* Without JavaScript the countdown stands still; the clock time still tells when. */}
          <span className="activation-at"> (pukul {formatClockWib(new Date(resendAvailableAt!))})</span>
        </p>
      ) : (
        <Form method="post" action="/resend-verification">
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <SubmitButton className="link-button">Kirim Ulang</SubmitButton>
        </Form>
      )}
    </div>
  );
}
