import { listUsers, markVerified } from "../store/people";
import { requestWithdrawal, settleWithdrawal } from "../store/orders";
import { applyOpsDecision, listOrdersForOps, OPS_LIST_LIMIT, type DecisionInput, type OpsDecision } from "../store/back-office";
import { grantRolesByEmail, revokeRolesByEmail, setOperatorRole } from "../store/people";
import { isStaffRole, STAFF_ROLES, type StaffRole } from "~/lib/staff-roles";
import { OPS_TRANSITIONS, type OpsTransition } from "~/lib/ops-decisions";
import { listPaymentIncidents, resolvePaymentIncident, runPaymentSweep, sweepSummary } from "../store/payments";
import { financeCsv, financeReport, moneyPictureCsv } from "../store/refunds";
import { backupCommand, restoreCommand } from "./backup";
import type { OpsIO } from "./io";
import { type Command, dateTime, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, positiveInt, table, usageError } from "./command-kit";
import { REFUND_COMMANDS } from "./refund-commands";
import { getDb } from "../db/client";
import { rotatePersonalDataKey, rowsNotUnderCurrentKey } from "../store/privacy";

// The ops commands (`npm run ops -- <command>`), independent of where they run: in the CLI's own
// process (PostgreSQL, or PGlite while no server runs) or inside the running server, which takes
// them over its local socket (channel.ts). Each writes lines to `io` and returns the exit status:
// 0 done, 1 refused or failed (with a one-line reason on err), 2 bad usage.

export type { OpsIO };
export { EXIT_OK, EXIT_REFUSED, EXIT_USAGE };

/**
 * One operator decision. `extra` names what the decision needs after the id: a rejection's reason
 * (the rest of the line), or shipping's courier and tracking number (the same rules as /ops).
 */
function decision(name: OpsDecision, summary: string, extra: "none" | "reason" | "shipping" = "none"): Command {
  // Every rejection of a transfer proof says whether the money arrived, as the back office's form
  // does (issue 45 item 1): one of the two flags, before the reason.
  const asksMoney = (OPS_TRANSITIONS[name] as OpsTransition).asksMoneyReceived === true;
  const usage = `orders:${name} <id>${asksMoney ? " --money-received|--no-money-received" : ""}${
    extra === "reason" ? " <alasan…>" : extra === "shipping" ? " <kurir> <nomor-resi>" : ""
  }`;
  return {
    usage,
    summary,
    async run([id, ...rest], io) {
      const orderId = positiveInt(id);
      let input: DecisionInput = {};
      let moneyReceived: boolean | undefined;
      if (asksMoney) {
        const flag = rest.shift();
        moneyReceived = flag === "--money-received" ? true : flag === "--no-money-received" ? false : undefined;
        if (moneyReceived === undefined) return usageError(io, usage);
      }
      if (extra === "reason") input = { reason: rest.join(" "), moneyReceived };
      else if (extra === "shipping" && rest.length === 2) input = { courier: rest[0], trackingNumber: rest[1] };
      const arity = extra === "none" ? rest.length === 0 : extra === "shipping" ? rest.length === 2 : rest.length > 0;
      if (orderId === null || !arity) return usageError(io, usage);
      const result = await applyOpsDecision(orderId, name, "cli", input);
      if (!result.ok) {
        io.err(`order ${orderId}: ${result.message}`);
        return EXIT_REFUSED;
      }
      io.out(`order ${orderId}: ${result.from} → ${result.to}`);
      return EXIT_OK;
    },
  };
}

/**
 * The back-office roles (issues 17, 27): never self-service. `users:grant-operator` makes the first
 * admin of a new store ('admin'); `users:revoke-operator` takes every role away. Each change ends the
 * person's sessions (their next sign-in passes the second factor again).
 */
function operatorRole(grant: boolean): Command {
  const usage = `users:${grant ? "grant" : "revoke"}-operator <email>`;
  return {
    usage,
    summary: grant
      ? "make an account an admin of the /ops back office (every role; with a second factor)"
      : "take every back-office role away",
    async run([email, ...rest], io) {
      if (!email || rest.length > 0) return usageError(io, usage);
      if (!(await setOperatorRole(email, grant))) {
        io.err(`no account with e-mail ${email}`);
        return EXIT_REFUSED;
      }
      io.out(`${email} is ${grant ? "an operator (admin)" : "no longer an operator"}`);
      return EXIT_OK;
    },
  };
}

/** `users:grant` / `users:revoke <email> <role…>` with the roles pesanan, katalog, keuangan, pegawai, admin. */
function staffRoles(grant: boolean): Command {
  const usage = `users:${grant ? "grant" : "revoke"} <email> <role…>`;
  return {
    usage,
    summary: `${grant ? "give" : "take"} back-office roles (${STAFF_ROLES.join(", ")})`,
    async run([email, ...names], io) {
      const roles = names.map((name) => name.toLowerCase());
      if (!email || roles.length === 0) return usageError(io, usage);
      const unknown = roles.filter((role) => !isStaffRole(role));
      if (unknown.length > 0) {
        io.err(`unknown role ${unknown.join(", ")} (roles: ${STAFF_ROLES.join(", ")})`);
        return EXIT_USAGE;
      }
      const change = grant ? grantRolesByEmail : revokeRolesByEmail;
      if (!(await change(email, roles as StaffRole[], "ops"))) {
        io.err(`no account with e-mail ${email}`);
        return EXIT_REFUSED;
      }
      io.out(`${email}: ${grant ? "granted" : "revoked"} ${roles.join(", ")}`);
      return EXIT_OK;
    },
  };
}

export const OPS_COMMANDS: Record<string, Command> = {
  "users:list": {
    usage: "users:list",
    summary: "list the accounts (id, email, name, NIP, company, roles, verified)",
    async run(_args, io) {
      const users = await listUsers();
      table(
        io,
        ["id", "email", "name", "NIP", "company", "roles", "verified"],
        users.map((u) => [
          String(u.id),
          u.email,
          u.fullname,
          u.nip,
          u.companyName,
          u.roles || "-",
          u.verifiedAt ? u.verifiedAt.toISOString().slice(0, 10) : "no",
        ]),
      );
      io.out(`${users.length} account(s)`);
      return EXIT_OK;
    },
  },
  "users:verify": {
    usage: "users:verify <email>",
    summary: "mark an account verified without the e-mail link",
    async run([email, ...rest], io) {
      if (!email || rest.length > 0) return usageError(io, "users:verify <email>");
      if (!(await markVerified(email))) {
        io.err(`no account with e-mail ${email}`);
        return EXIT_REFUSED;
      }
      io.out(`${email} is verified`);
      return EXIT_OK;
    },
  },
  "users:grant-operator": operatorRole(true),
  "users:revoke-operator": operatorRole(false),
  "users:grant": staffRoles(true),
  "users:revoke": staffRoles(false),
  "orders:list": {
    usage: "orders:list [--status <id>]",
    summary: `list orders, newest first (at most ${OPS_LIST_LIMIT})`,
    async run(args, io) {
      let statusId: number | undefined;
      if (args.length > 0) {
        const status = args[0] === "--status" && args.length === 2 ? positiveInt(args[1]) : null;
        if (status === null) return usageError(io, "orders:list [--status <id>]");
        statusId = status;
      }
      const rows = await listOrdersForOps({ statusId });
      table(
        io,
        ["id", "invoice", "status", "buyer e-mail", "amount", "date (UTC)"],
        rows.map((o) => [
          String(o.id),
          o.invoiceId,
          `${o.statusId} ${o.statusName}`,
          o.buyerEmail,
          String(o.amount),
          dateTime(o.createdAt),
        ]),
      );
      io.out(`${rows.length} order(s)`);
      return EXIT_OK;
    },
  },
  "orders:approve-incentive": decision("approve-incentive", "incentive approved: 100 → 200 (the buyer pays next)"),
  "orders:reject-incentive": decision("reject-incentive", "incentive rejected with a reason: 100 → 2", "reason"),
  "orders:approve-installment": decision("approve-installment", "instalment/paylater approved: 301 → 300"),
  "orders:reject-installment": decision("reject-installment", "instalment/paylater rejected with a reason: 301 → 2", "reason"),
  "orders:verify-transfer": decision("verify-transfer", "transfer proof verified: 302 → 300"),
  "orders:reject-transfer": decision(
    "reject-transfer",
    "transfer proof rejected with a reason: 302 → 200, a fresh payment window (the buyer may upload again); money received → a refund awaiting finance's confirmation",
    "reason",
  ),
  "orders:reject-transfer-final": decision(
    "reject-transfer-final",
    "transfer proof rejected for good with a reason: 302 → 2; money received → a refund awaiting finance's confirmation",
    "reason",
  ),
  "orders:ship": decision("ship", "shipped with courier and tracking number: 300 → 400", "shipping"),
  "orders:cancel-refund": decision(
    "cancel-refund",
    "'Batalkan dan Kembalikan Dana' with a reason: 300 → 1, the stock unit returns, all money received is refunded (decision 0057)",
    "reason",
  ),
  "orders:expire": {
    usage: "orders:expire",
    summary: "payment sweep: Midtrans reconciliation, then unpaid orders past the payment deadline → 2",
    async run(args, io) {
      if (args.length > 0) return usageError(io, "orders:expire");
      // The same sweep the server runs every minute.
      const result = await runPaymentSweep();
      io.out(result.expired.length ? `expired ${result.expired.length} order(s): ${result.expired.join(", ")}` : "no overdue orders");
      const reconciled = sweepSummary({ expired: [], reconciled: result.reconciled });
      if (reconciled) io.out(reconciled);
      return EXIT_OK;
    },
  },
  "finance:report": {
    usage: "finance:report --from YYYY-MM-DD --to YYYY-MM-DD",
    summary:
      "money received, refunded and net per WIB day and payment method, as CSV (issue 36); then, after a blank line, the whole picture for all time and the period: received = kept + refunded + open refunds, the difference, and the net without the open refunds (issue 45)",
    async run(args, io) {
      const usage = "finance:report --from YYYY-MM-DD --to YYYY-MM-DD";
      const day = /^\d{4}-\d{2}-\d{2}$/;
      const from = args[args.indexOf("--from") + 1];
      const to = args[args.indexOf("--to") + 1];
      if (args.length !== 4 || !args.includes("--from") || !args.includes("--to") || !from || !to || !day.test(from) || !day.test(to))
        return usageError(io, usage);
      const report = await financeReport(from, to);
      io.out(financeCsv(report.days).trimEnd());
      io.out("");
      const pictures = [
        { scope: "sejak awal", picture: report.allTime },
        { scope: `${from}..${to}`, picture: report.period },
      ];
      io.out(moneyPictureCsv(pictures).trimEnd());
      return 0;
    },
  },
  "payments:incidents": {
    usage: "payments:incidents [--all]",
    summary: "payments for ops: money after the order closed (refund), amounts that did not match",
    async run(args, io) {
      if (args.length > 1 || (args[0] !== undefined && args[0] !== "--all")) return usageError(io, "payments:incidents [--all]");
      const incidents = await listPaymentIncidents({ open: args[0] !== "--all" });
      table(
        io,
        ["id", "kind", "order", "invoice", "status", "gateway ref", "amount", "date (UTC)", "resolved"],
        incidents.map((i) => [
          String(i.id),
          i.kind,
          String(i.orderId),
          i.invoiceId,
          String(i.statusId),
          i.gatewayRef,
          i.amount === null ? "-" : String(i.amount),
          dateTime(i.createdAt),
          i.resolvedAt ? dateTime(i.resolvedAt) : "-",
        ]),
      );
      for (const i of incidents) io.out(`#${i.id}: ${i.detail}`);
      io.out(`${incidents.length} incident(s)`);
      return EXIT_OK;
    },
  },
  "payments:resolve-incident": {
    usage: "payments:resolve-incident <id>",
    summary: "an incident was dealt with (refunded, or checked): it leaves the open list",
    async run([id, ...rest], io) {
      const incidentId = positiveInt(id);
      if (incidentId === null || rest.length > 0) return usageError(io, "payments:resolve-incident <id>");
      if (!(await resolvePaymentIncident(incidentId))) {
        io.err(`incident ${incidentId}: not found or already resolved`);
        return EXIT_REFUSED;
      }
      io.out(`incident ${incidentId}: resolved`);
      return EXIT_OK;
    },
  },
  "balance:withdraw": {
    usage: "balance:withdraw <email> <amount>",
    summary: "a withdrawal 'Dalam Proses' (never below zero)",
    async run([email, amountText, ...rest], io) {
      const amount = positiveInt(amountText);
      if (!email || amount === null || rest.length > 0) return usageError(io, "balance:withdraw <email> <amount> (whole rupiah, > 0)");
      const result = await requestWithdrawal(email, amount);
      if (!result.ok) {
        io.err(`${email}: ${result.message}`);
        return EXIT_REFUSED;
      }
      io.out(`withdrawal ${result.id}: ${amount} from ${email}, Dalam Proses`);
      return EXIT_OK;
    },
  },
  "db:backup": {
    usage: "db:backup <file>",
    summary: "a consistent copy of the whole store (orders, balances, uploads) while it runs",
    run: (args, io) => backupCommand(args, io, usageError),
  },
  "db:restore": {
    usage: "db:restore <file>",
    summary: "restore a backup into an empty DATA_DIR or an empty database (refuses anything else)",
    run: (args, io) => restoreCommand(args, io, usageError),
  },
  "data:rotate-key": {
    usage: "data:rotate-key",
    summary: "re-seal every NIK and photo under the first DATA_ENCRYPTION_KEY, in small batches, while the server serves",
    async run(args, io) {
      if (args.length) return usageError(io, "data:rotate-key");
      const result = await rotatePersonalDataKey();
      const left = await rowsNotUnderCurrentKey(await getDb());
      io.out(
        `key ${result.keyId}: ${result.orders} orders, ${result.uploads} files, ${result.drafts} checkout drafts, ${result.keys} store keys re-sealed`,
      );
      if (left > 0) {
        // Rows written under an older key meanwhile (an instance not yet restarted with the new list).
        io.err(`${left} rows are still under another key: run data:rotate-key again`);
        return EXIT_REFUSED;
      }
      io.out("every personal-data row is under the first key: the older keys may now be removed from DATA_ENCRYPTION_KEY");
      // Issue 45 item 13: the 'Unduh Data Saya' archives live 24 hours and are not re-sealed (decision 0059).
      io.out(
        "'Unduh Data Saya' archives are not re-sealed: one sealed under an older key stops opening when that key goes (its link then says the file is no longer available); remove the old key no sooner than 24 hours from now to let them run out",
      );
      return EXIT_OK;
    },
  },
  "balance:settle": {
    usage: "balance:settle <id> ok|cancel",
    summary: "a withdrawal paid out (Berhasil) or cancelled (Dibatalkan)",
    async run([idText, outcome, ...rest], io) {
      const id = positiveInt(idText);
      if (id === null || (outcome !== "ok" && outcome !== "cancel") || rest.length > 0)
        return usageError(io, "balance:settle <id> ok|cancel");
      const result = await settleWithdrawal(id, outcome);
      if (!result.ok) {
        io.err(`withdrawal ${id}: ${result.message}`);
        return EXIT_REFUSED;
      }
      io.out(`withdrawal ${id}: ${outcome === "ok" ? "Berhasil" : "Dibatalkan"}`);
      return EXIT_OK;
    },
  },
  ...REFUND_COMMANDS,
};

export function opsUsage(io: OpsIO) {
  io.out("usage: npm run ops -- <command> [arguments]");
  io.out("");
  io.out("commands:");
  // Two columns as wide as the longest usage, so a long one never runs into its description.
  const commands = Object.values(OPS_COMMANDS);
  const width = Math.max(...commands.map((c) => c.usage.length));
  for (const c of commands) io.out(`  ${c.usage.padEnd(width)}  ${c.summary}`);
}

/** Runs one command line; never throws (an unexpected error is one line on err, status 1). */
export async function runOpsCommand(argv: string[], io: OpsIO): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === "help" || name === "--help") {
    opsUsage(io);
    return name ? EXIT_OK : EXIT_USAGE;
  }
  const command = Object.hasOwn(OPS_COMMANDS, name) ? OPS_COMMANDS[name] : undefined;
  if (!command) {
    io.err(`unknown command: ${name} (npm run ops -- help lists them)`);
    return EXIT_USAGE;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    io.err(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_REFUSED;
  }
}
