// The people domain: accounts, sessions and bearer tokens, rate limits, operators and their second factor.
// What the doors (pages, the API, the ops CLI, the gateways) and other domains may call; inside the
// domain, modules import each other directly (DESIGN §3).
export { authenticate, checkResetSecret, getProfile, listCompanies, listUsers, markVerified, registerUser, requestPasswordReset, resendVerification, resetPassword, updateProfile, verifyAccount } from "./accounts";
export { clearWrongSecondFactors, confirmEnrolment, countWrongSecondFactor, getFactorState, recordAudit, secondFactorRefusal, verifySecondFactor } from "./operators";
export { checkRateLimit, hitRateLimit, RATE_LIMITS, type RateLimitRule, resetRateLimit } from "./rate-limits";
export { createSession, getSessionUser, hashToken, markSecondFactorPassed, revokeSession, type SessionUser } from "./sessions";
export { countAdmins, grantRolesByEmail, listStaff, revokeRolesByEmail, rolesOf, setOperatorRole, setStaffRoles, type StaffMember } from "./staff";
