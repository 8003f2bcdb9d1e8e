import { ApiError, defineArea, idOf, invalid, ok, readJson, tooMany } from "~/.server/http/api";
import { object } from "~/.server/http/api-shapes";
import { OTP_WRONG, validateOtp } from "~/.server/store/payments";
import { requestPaylaterOtp } from "~/.server/store/checkout";

// Spec §7 otp/request and otp/validate: the BRI-CERIA code of /otp. The code goes to the buyer's
// phone; the secretId of a validated code is what create / set-payment take as otpSecretId (for
// the same phone).

const area = defineArea("otp", {
  "/request": {
    method: "POST",
    auth: true,
    doc: {
      summary: "Send a 4-digit code (valid 30 minutes) to the buyer's phone on what waits for it",
      description:
        "Only for a BRI Ceria payment waiting for its code: with `orderId` and `paymentMethodId` (BRI Ceria), the buyer's own order in 200 without a method (set-payment), to the order's buyer phone; without `orderId`, the buyer's checkout whose chosen method is BRI Ceria (an order/create with BRI Ceria and no `otpSecretId` leaves it so), to its buyerPhoneNumber. A `phone` in the body is not used. 409 when nothing waits for a code.",
      body: { type: "object", properties: { orderId: { type: "integer" }, paymentMethodId: { type: "integer" } } },
      data: object({
        phone: { type: "string" },
        expiresAt: { type: "string", format: "date-time" },
        resendAvailableAt: { type: "string", format: "date-time" },
      }),
      errors: [400, 403, 409, 429],
    },
    async handle({ request, user, address }) {
      const body = await readJson(request);
      const orderId = body.orderId === undefined || body.orderId === null ? undefined : idOf(body.orderId);
      if (orderId === undefined && body.orderId !== undefined && body.orderId !== null)
        throw invalid({ orderId: ["Pesanan tidak ditemukan."] });
      // Issue 45 item 10: the store picks the phone (the order's or the checkout's), never the body.
      const sent = await requestPaylaterOtp(user.id, { orderId, paymentMethodId: body.paymentMethodId }, new Date(), address);
      if (!sent.ok) {
        const message = sent.message;
        if (sent.code === "NO_PAYLATER") throw new ApiError(409, message);
        if (sent.code === "TOO_MANY") throw tooMany(sent.retryAfterSeconds ?? 60, message);
        if (sent.code === "NOT_VERIFIED") throw new ApiError(403, message);
        if (sent.code === "COOLDOWN")
          throw tooMany(Math.ceil(((sent.resendAvailableAt?.getTime() ?? Date.now()) - Date.now()) / 1000), message);
        // Spec §8: BRI-CERIA's NOT_EXIST error ('Nomor Telephone tak terdaftar').
        throw new ApiError(400, sent.code === "NOT_EXIST" ? "error NOT_EXIST" : message, { phone: [message] });
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
