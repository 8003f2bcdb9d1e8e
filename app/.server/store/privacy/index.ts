// The privacy domain (issue 35, UU No. 27/2022): personal data sealed at rest (the NIK, uploaded
// photos), the NIK's keyed hash and mask, the record of who opened a full NIK or KTP photo, the KTP
// photos' retention and the key rotation. What the doors and other domains may call (DESIGN §3).
import "./rotation";
export { nikHashOf } from "./keys";
export { maskNik, nikContext, type NikOwner, readMaskedNik, readNik, sealDraftNik, sealNik } from "./nik";
export { bindNiksToTheirRows, NIK_BOUND_TO_ROWS } from "./nik-binding";
export { openUpload, sealUpload } from "./uploads";
export { rotatePersonalDataKey, rowsNotUnderCurrentKey, sealPersonalData, type SealCounts } from "./rotation";
export {
  ACCESS_ITEM_LABELS,
  type AccessEntry,
  type AccessFilter,
  type AccessItem,
  countOrderAccess,
  exportPersonalDataAccessCsv,
  type KtpPhoto,
  listPersonalDataAccess,
  openOrderKtp,
  type Opener,
  openOrderNik,
  orderKtpState,
  recordNikSearch,
} from "./access";
export { deleteExpiredKtpPhotos, getKtpRetentionDays, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, saveKtpRetentionDays } from "./retention";
export {
  ERASE_MONEY_DUE,
  ERASE_OPEN_ORDER,
  ERASE_STAFF,
  ERASE_WRONG_PASSWORD,
  eraseAccount,
  eraseRefundOpen,
  type ErasureResult,
} from "./erasure";
export {
  DATA_EXPORT_HOURS,
  type DataExportState,
  dataExportOf,
  dataExportPath,
  deleteExpiredDataExports,
  latestDataExport,
  DATA_EXPORT_GONE,
  DATA_EXPORT_UNAVAILABLE,
  openDataExport,
  requestDataExport,
} from "./data-export";
