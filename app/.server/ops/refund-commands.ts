import {
  confirmRefundFunds,
  failRefund,
  type FinanceResult,
  listRefundsForOps,
  markRefundTransferred,
  refundCounts,
  REFUND_LIST_LIMIT,
  type OpsRefund,
  refundThroughGateway,
} from "../store/refunds";
import { REFUND_STATE_NAMES, type RefundState } from "~/lib/refunds";
import { type Command, dateTime, EXIT_OK, EXIT_REFUSED, positiveInt, table, usageError } from "./command-kit";
import type { OpsIO } from "./io";

// Finance's refund steps from the CLI (issue 36): the same store functions as /ops/refunds, with the
// CLI as the actor — the refund's event names "ops", as the order commands' events do (an operator
// audit row needs an operator; the CLI is whoever holds the server).

const STATES = Object.keys(REFUND_STATE_NAMES) as RefundState[];
const isState = (text: string | undefined): text is RefundState => (STATES as (string | undefined)[]).includes(text);

/** `<id> --flag <text…>`: the id and the flag's text (the rest of the line), or null. */
function idAndText(args: string[], flag: string): { id: number; text: string } | null {
  const [idText, given, ...rest] = args;
  const id = positiveInt(idText);
  if (id === null || given !== flag || rest.length === 0) return null;
  return { id, text: rest.join(" ") };
}

/** One line for a finance step's outcome: exit 0 when done (or already done), 1 when refused. */
function report(io: OpsIO, refundId: number, result: FinanceResult, done: string): number {
  if (!result.ok) {
    io.err(`refund ${refundId}: ${result.message}`);
    return EXIT_REFUSED;
  }
  io.out(`refund ${refundId}: ${result.already ? "sudah dikembalikan sebelumnya" : done}`);
  return EXIT_OK;
}

const row = (r: OpsRefund) => [
  String(r.id),
  String(r.orderId),
  r.invoiceId,
  REFUND_STATE_NAMES[r.state],
  r.method,
  String(r.amount),
  r.bankName ? `${r.bankName} ${r.accountNumber} a.n. ${r.accountHolder}` : "-",
  dateTime(r.createdAt),
  r.transferReference ?? (r.failureReason ? `gagal: ${r.failureReason}` : "-"),
];

const TRANSFERRED_USAGE = "refunds:mark-transferred <id> --account <digit-terakhir-nomor-rekening> --reference <nomor-referensi>";

export const REFUND_COMMANDS: Record<string, Command> = {
  "refunds:list": {
    usage: `refunds:list [--state ${STATES.join("|")}]`,
    summary: `refunds (a state to work: oldest first; given back or all: newest first; at most ${REFUND_LIST_LIMIT}) with order, amount, method, account, reference`,
    async run(args, io) {
      const usage = `refunds:list [--state ${STATES.join("|")}]`;
      if (args.length !== 0 && !(args.length === 2 && args[0] === "--state" && isState(args[1]))) return usageError(io, usage);
      const state = args[1] as RefundState | undefined;
      const [refunds, counts] = await Promise.all([listRefundsForOps({ state }), refundCounts()]);
      table(io, ["id", "order", "invoice", "state", "method", "amount", "account", "created (UTC)", "reference"], refunds.map(row));
      const total = state ? counts[state].count : Object.values(counts).reduce((sum, c) => sum + c.count, 0);
      io.out(refunds.length < total ? `${refunds.length} of ${total} refund(s) shown` : `${refunds.length} refund(s)`);
      return EXIT_OK;
    },
  },
  "refunds:mark-transferred": {
    usage: TRANSFERRED_USAGE,
    summary:
      "'Tandai Sudah Ditransfer': a transfer refund 'Sedang Diproses' → 'Dana Telah Dikembalikan' with the bank's reference; refused unless the buyer's account number (as refunds:list shows it now) ends with --account's digits",
    async run([idText, accountFlag, digits, ...rest], io) {
      // The digits bind the step to the account the money went to (issue 45 item 6): after 'Gagal'
      // the buyer's new details replace the old ones, and a transfer to the old account is refused.
      const parsed = accountFlag === "--account" && digits !== undefined ? idAndText([idText!, ...rest], "--reference") : null;
      if (!parsed) return usageError(io, TRANSFERRED_USAGE);
      const result = await markRefundTransferred(parsed.id, "cli", { reference: parsed.text, account: { numberEndsWith: digits! } });
      return report(io, parsed.id, result, `${REFUND_STATE_NAMES.refunded}, referensi ${parsed.text.trim()}`);
    },
  },
  "refunds:fail": {
    usage: "refunds:fail <id> --reason <alasan…>",
    summary: "'Gagal': a transfer refund 'Sedang Diproses' → 'Gagal Diproses'; the buyer is asked for (new) account details",
    async run(args, io) {
      const parsed = idAndText(args, "--reason");
      if (!parsed) return usageError(io, "refunds:fail <id> --reason <alasan…>");
      return report(io, parsed.id, await failRefund(parsed.id, "cli", { reason: parsed.text }), REFUND_STATE_NAMES.failed);
    },
  },
  "refunds:gateway": {
    usage: "refunds:gateway <id>",
    summary: "'Kembalikan via Midtrans': a card refund through the gateway's refund API (the same key on every try: never twice)",
    async run([idText, ...rest], io) {
      const id = positiveInt(idText);
      if (id === null || rest.length > 0) return usageError(io, "refunds:gateway <id>");
      return report(io, id, await refundThroughGateway(id, "cli"), REFUND_STATE_NAMES.refunded);
    },
  },
  "refunds:confirm-funds": {
    usage: "refunds:confirm-funds <id> --amount <rupiah> [alasan…]",
    summary:
      "'Konfirmasi Dana': the amount of a manual transfer seen on the bank statement ('Menunggu Konfirmasi Dana' → owed); 0 with a reason → 'Dana tidak diterima'",
    async run([idText, flag, amount, ...note], io) {
      const usage = "refunds:confirm-funds <id> --amount <rupiah> [alasan…]";
      const id = positiveInt(idText);
      if (id === null || flag !== "--amount" || amount === undefined) return usageError(io, usage);
      const result = await confirmRefundFunds(id, "cli", { amount, note: note.join(" ") });
      if (!result.ok) {
        io.err(`refund ${id}: ${result.message}`);
        return EXIT_REFUSED;
      }
      io.out(`refund ${id}: ${REFUND_STATE_NAMES[result.state]}`);
      return EXIT_OK;
    },
  },
};
