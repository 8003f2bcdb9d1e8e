// The people domain: accounts, sessions and bearer tokens, rate limits, operators and their second factor, the employee roster.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export {
  authenticate,
  checkPassword,
  checkResetSecret,
  getProfile,
  listCompanies,
  listUsers,
  markVerified,
  registerUser,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  updateProfile,
  verifyAccount,
} from "./accounts";
export {
  clearWrongSecondFactors,
  confirmEnrolment,
  getFactorState,
  recordAudit,
  type AuditAction,
  claimSecondFactorAttempt,
  verifySecondFactor,
} from "./operators";
export { checkRateLimit, hitMailRateLimit, hitRateLimit, RATE_LIMITS, type RateLimitRule, resetRateLimit } from "./rate-limits";
export {
  createSession,
  getSessionUser,
  hashToken,
  markSecondFactorPassed,
  revokeAllSessions,
  revokeSession,
  type SessionUser,
} from "./sessions";
export {
  countAdmins,
  findUserByEmail,
  grantRolesByEmail,
  LAST_ADMIN,
  listStaff,
  revokeRolesByEmail,
  rolesOf,
  setOperatorRole,
  setStaffRoles,
  NO_FACTOR,
  OWN_FACTOR,
  resetSecondFactorFromOps,
  setStaffRolesFromOps,
  type StaffMember,
  type StaffStanding,
} from "./staff";
export {
  changeAccountEmployment,
  type CompanyRoster,
  employeeStanding,
  type EmployeeStanding,
  findAccountsForOps,
  listCompanyRosters,
  listRoster,
  NIP_ALREADY_LINKED,
  NIP_NOT_ON_ROSTER,
  NOT_ACTIVE_EMPLOYEE,
  ROSTER_PAGE_SIZE,
  type RosterRow,
  STANDING_LABELS,
  updateRosterEntry,
} from "./roster";
export { applyRosterImport, previewRosterImport, ROSTER_COLUMNS, ROSTER_MAX_BYTES, type RosterImportPreview } from "./roster-import";
export {
  linkRosterAccount,
  type RosterCandidate,
  rosterCandidates,
  type RosterMatch,
  rosterMatchFor,
  requestRosterMatch,
  unlinkRosterAccount,
} from "./roster-links";
export {
  confirmLinkByCode,
  decideLinkRequest,
  LINK_CODE_INVALID,
  LINK_QUEUE_PAGE_SIZE,
  LINK_REQUEST_PENDING,
  LINK_REQUEST_MESSAGES,
  type LinkQueueRow,
  type LinkRoute,
  linkRequestByCode,
  listLinkRequests,
  notEmployeeMessage,
  openLinkRequestOf,
} from "./roster-requests";
export { addCompany, getHelpContacts, type HelpContacts, listAllCompanies, saveHelpContacts, updateCompany } from "./settings";
