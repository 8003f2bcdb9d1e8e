// The back-office domain: the operators' queues, decisions, search, the finance export, the store's metrics.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export {
  applyOpsDecision,
  COURIER_NAME_REQUIRED,
  COURIER_REQUIRED,
  type DecisionFieldErrors,
  type DecisionInput,
  getBuyerOpsFacts,
  listOrdersForOps,
  OPS_LIST_LIMIT,
  OPS_TRANSITIONS,
  type OpsDecision,
  REASON_REQUIRED,
  REASON_TOO_LONG,
  TRACKING_REQUIRED,
  paidAtGateway,
  MONEY_RECEIVED_REQUIRED,
  PAID_AT_GATEWAY,
} from "./decisions";
export { exportOrdersCsv } from "./export";
export { formatAge, formatWhen, pageParam, readOrderSearch } from "./format";
export { registerStoreMetrics } from "./metrics";
export { isOrderQueue, listQueue, listWithdrawalsInProcess, QUEUES, queueSummaries, searchOrders } from "./queues";
export { getOrderForOps } from "./order-detail";
export {
  type CsvImportKind,
  forgetAppliedImportFiles,
  getStagedCsvImport,
  markCsvImportApplied,
  stageCsvImport,
  type StagedCsvImport,
} from "./csv-imports";
export {
  DASHBOARD_DAYS,
  type DayFigures,
  incentiveDecisions,
  type IncentiveCounts,
  LOW_STOCK_LIMIT,
  lowStock,
  type LowStock,
  ordersByStatus,
  ordersPerDay,
  type StatusCount,
  topProducts,
  type TopProduct,
} from "./dashboard";
