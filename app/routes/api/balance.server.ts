import { defineArea, ok } from "~/.server/http/api";
import { BALANCE_ITEM, list, object } from "~/.server/http/api-shapes";
import { getBalance, listBalanceHistory } from "~/.server/store/orders";

// Spec §7 balance/check and balance/history: /history-balance's figures.

const area = defineArea("balance", {
  "/check": {
    method: "GET",
    auth: true,
    doc: { summary: "The buyer's balance (rewards minus withdrawals)", data: object({ balance: { type: "integer" } }) },
    handle: async ({ user }) => ok({ balance: await getBalance(user.id) }),
  },
  "/history": {
    method: "GET",
    auth: true,
    doc: { summary: "The balance entries, newest first (status set: a withdrawal)", data: object({ content: list(BALANCE_ITEM) }) },
    async handle({ user }) {
      const items = await listBalanceHistory(user.id);
      return ok({ content: items.map(({ kind: _kind, ...item }) => item) });
    },
  },
});

export const BALANCE_AREA = area;
