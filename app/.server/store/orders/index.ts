// The orders domain: the status machine (every transition), the buyer's orders and their actions, uploads, delivery proofs, rewards and the balance.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export {
  BUILT_IN_REWARD_RULE,
  creditOrderReward,
  currentRewardRule,
  getBalance,
  getCreditedReward,
  getOrderRewardSetting,
  listBalanceHistory,
  requestWithdrawal,
  rewardFor,
  saveOrderRewardSetting,
  settleWithdrawal,
} from "./balance";
export { processProofUpload } from "./delivery-proof";
export {
  amountToPay,
  type CostLine,
  costLines,
  getOwnedOrderDetail,
  hasOrders,
  listOrderHistoryPages,
  listOrderStatuses,
  orderLines,
  type OrderDetail,
  type OrderHistoryPage,
} from "./history";
export {
  cancelOrder,
  confirmDelivery,
  getOwnedOrderSummary,
  MAX_DELIVERY_PROOFS,
  ORDER_CANCELLED,
  ORDER_NOT_FOUND,
  PROOF_REQUIRED,
  TOO_MANY_PROOFS,
  transitionOrder,
} from "./orders";
export { copyOwnedUpload, getOwnedUpload, getUploadForOperator, saveUpload, type UploadPurpose, uploadUrl } from "./uploads";
