import { ApiError, defineArea, idOf, invalid, ok, readJson, tooMany } from "~/.server/http/api";
import { object } from "~/.server/http/api-shapes";
import { getProfile } from "~/.server/store/people";
import { OTP_WRONG, requestOtp, validateOtp } from "~/.server/store/payments";
import { paylaterPhone } from "~/.server/store/checkout";

// Spec §7 otp/request and otp/validate: the BRI-CERIA code of /otp. The code goes to the buyer's
// phone; the secretId of a validated code is what create / set-payment take as otpSecretId (for
// the same phone).

const area = defineArea("otp", {
  "/request": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Send a 4-digit code (valid 30 minutes) to the buyer's phone",
      description:
        "The phone: `orderId`'s buyer phone (set-payment), else `phone` (the buyerPhoneNumber the order will carry), else the profile's.",
      body: { type: "object", properties: { orderId: { type: "integer" }, phone: { type: "string" } } },
      data: object({
        phone: { type: "string" },
        expiresAt: { type: "string", format: "date-time" },
        resendAvailableAt: { type: "string", format: "date-time" },
      }),
      errors: [400, 429],
    },
    async handle({ request, user, address }) {
      const body = await readJson(request);
      const orderId = idOf(body.orderId);
      const phone =
        orderId !== undefined
          ? await paylaterPhone(user.id, orderId)
          : typeof body.phone === "string" && body.phone.trim()
            ? body.phone.replace(/\D/g, "")
            : ((await getProfile(user.id))?.phoneNo.replace(/\D/g, "") ?? null);
      const sent = phone ? await requestOtp(user.id, phone, new Date(), address) : null;
      if (!sent?.ok) {
        const message = sent?.message ?? "Nomor HP tidak valid.";
        if (sent?.code === "TOO_MANY") throw tooMany(sent.retryAfterSeconds ?? 60, message);
        if (sent?.code === "NOT_VERIFIED") throw new ApiError(403, message);
        if (sent?.code === "COOLDOWN")
          throw tooMany(Math.ceil(((sent.resendAvailableAt?.getTime() ?? Date.now()) - Date.now()) / 1000), message);
        // Spec §8: BRI-CERIA's NOT_EXIST error ('Nomor Telephone tak terdaftar').
        throw new ApiError(400, sent?.code === "NOT_EXIST" ? "error NOT_EXIST" : message, { phone: [message] });
      }
      return ok(
        { phone: sent.phone, expiresAt: sent.expiresAt.toISOString(), resendAvailableAt: sent.resendAvailableAt.toISOString() },
        "Kode OTP telah dikirim.",
      );
    },
  },
  "/validate": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Check the code: secretId for the payment",
      body: { type: "object", required: ["otp"], properties: { otp: { type: "string", minLength: 4, maxLength: 4 } } },
      data: object({ secretId: { type: "string" } }),
      errors: [400, 429],
    },
    async handle({ request, user }) {
      const body = await readJson(request);
      // validateOtp counts wrong codes itself (the same limit as /otp).
      const checked = await validateOtp(user.id, typeof body.otp === "string" ? body.otp : "");
      if (!checked.ok) {
        if (checked.retryAfterSeconds) throw tooMany(checked.retryAfterSeconds, checked.message);
        throw invalid({ otp: [checked.message ?? OTP_WRONG] });
      }
      return ok({ secretId: checked.secretId });
    },
  },
});

export const OTP_AREA = area;
