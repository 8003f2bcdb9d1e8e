// The checkout domain: the checkout draft, addresses, the checkout rules and the order made from them, the payment choice on the draft, the whole checkout in one call (the API).
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export {
  checkEmployeePromo,
  type CheckoutDraft,
  clearDraftPaymentChoice,
  getCheckoutDraft,
  getSavedAddress,
  previousNikOf,
  saveDraftAddress,
  saveDraftValues,
  setDraftKtp,
  startCheckout,
} from "./draft";
export { type Area, listDistricts, listProvinces, listRegencies, listVillages, resolveAddress } from "./locations";
export {
  checkOrderRules,
  PRODUCT_WITHDRAWN,
  checkoutContextOf,
  type CheckoutSubmission,
  checkoutSubmissionOf,
  createOrderFromDraft,
  EMPLOYEE_PROMO_USED,
  NIK_ALREADY_USED,
  NIP_NOT_ACCOUNTS,
  NO_DRAFT,
  type RuleFailure,
} from "./order-creation";
export {
  chooseDraftMethod,
  chooseDraftTenor,
  getPaymentFlowSummary,
  getPaymentSummary,
  OTP_NO_PAYLATER,
  payDraft,
  paylaterPhone,
  requestPaylaterOtp,
} from "./payment-choice";
export {
  type CheckoutBuyer,
  type CheckoutField,
  type CheckoutInput,
  type CheckoutResult,
  type KtpInput,
  productCheckoutAmount,
  saveCheckoutForm,
  submitCheckout,
} from "./submit";
