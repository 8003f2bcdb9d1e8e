// The refunds domain (issue 36, DESIGN §6 "Money back"): the money received for each order, the
// refunds (created in the transaction of the move that causes them), the buyer's bank details,
// finance's steps (transfer, failure, the gateway's refund API) and the figures of /ops/finance.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export {
  createAwaitingFundsRefund,
  createRefund,
  type CreateRefundResult,
  getRefund,
  listRefundsForOps,
  REFUND_LIST_LIMIT,
  moveRefund,
  type OpsRefund,
  recordPaymentReceipt,
  recordReceipt,
  type Refund,
  REFUND_ABOVE_RECEIVED,
  REFUND_NOT_FOUND,
  REFUND_REFUSED,
  REFUND_TRANSITIONS,
  type RefundCause,
  refundCounts,
  refundEventsOf,
  refundInvoice,
  refundOwner,
  type RefundMethod,
} from "./refunds";
export { type AccountResult, type BuyerRefund, listOwnedRefunds, openRefundsOf, refundStatesOf, submitRefundAccount } from "./buyer";
export {
  ACCOUNT_CHANGED,
  ACCOUNT_DIGITS_INVALID,
  ACCOUNT_NOT_MATCHING,
  accountVersionOf,
  FAILURE_REASON_REQUIRED,
  type FinanceActor,
  type FinanceResult,
  failRefund,
  markRefundTransferred,
  REFERENCE_REQUIRED,
  refundKey,
  refundThroughGateway,
  type ShownAccount,
} from "./finance";
export { settleGatewayRefundNotice } from "./gateway-notice";
export { checkFundsInput, confirmRefundFunds, type FundsInput, type FundsResult } from "./confirm-funds";
export { exportTransferRefundsCsv, exportTransferRefundsXlsx } from "./export";
export { financeCsv, type FinanceDay, financeReport, type MoneyPicture, moneyPictureCsv, type UnbalancedOrder } from "./report";
export {
  OVERPAYMENT_ALREADY,
  OVERPAYMENT_AMOUNT_INVALID,
  OVERPAYMENT_NOTHING_RECEIVED,
  OVERPAYMENT_NOT_TRANSFER,
  type OverpaymentFields,
  type OverpaymentResult,
  overpaymentNotAbove,
  recordOverpayment,
} from "./overpayment";
