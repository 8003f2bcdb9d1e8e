// The payments domain: methods and tenors, opening an order's payment, the payment page, 'Saya sudah bayar', settlements and expiry, the paylater code.
// The settlement side of the gateways too (their notifications, the sweep, the ledger and incidents).
// What the doors (pages, the API, the ops CLI, the gateways' webhooks) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export {
  activeMethod,
  CHECKOUT_INCOMPLETE,
  checkPaymentChoice,
  GATEWAY_UNAVAILABLE,
  INCENTIVE_FROM_CHECKOUT,
  isId,
  listPaymentMethods,
  listTenorOptions,
  METHOD_REQUIRED,
  METHOD_UNKNOWN,
  NOT_MARKABLE,
  OTP_REQUIRED,
  type PaymentMethodChoice,
  PROOF_REQUIRED,
  statusForType,
  UNIQUE_CODES_EXHAUSTED,
} from "./methods";
export { freeUniqueCode, openPayment } from "./open";
export { consumeOtpSecret, getOtpState, OTP_WRONG, type OtpRequestResult, PHONE_NOT_REGISTERED, requestOtp, validateOtp } from "./otp";
export { getPaymentDetail, markPaid, type PaymentDetail } from "./page";
export { openPaymentQuietly, type PayResult, setOrderPayment } from "./set-payment";
export { expireOverduePayments, getOpenVaPayment, settleGatewayEvent, type SettlementResult } from "./settlement";
export { applyMidtransStatus, midtransOutcome, refreshOwnedGatewayPayment, type MidtransDecision } from "./midtrans-settle";
export { SANDBOX_NOT_PAYABLE, sandboxPay, type SandboxPayResult } from "./sandbox-pay";
export { runPaymentSweep, sweepSummary } from "./sweep";
export {
  listPaymentIncidents,
  openIncidentSummary,
  recordPaymentIncident,
  resolvePaymentIncident,
  type PaymentIncident,
} from "./gateway-payments";
export {
  getCashDiscount,
  getHowToTexts,
  getTenorSettings,
  manualTransferReady,
  saveCashDiscount,
  HOW_TO_CHANNELS,
  getTransferAccount,
  listMethodSettings,
  saveHowToTexts,
  saveMethodSettings,
  saveTenorSettings,
  saveTransferAccount,
  type TransferAccount,
} from "./settings";
// A proof rejected for another try gives the buyer a fresh window (issue 45 item 1).
export { reopenTransferWindow } from "./page";
