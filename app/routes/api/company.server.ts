import { defineArea, ok } from "~/.server/http/api";
import { list, object } from "~/.server/http/api-shapes";
import { listCompanies } from "~/.server/store/people";

// Spec §7 company/list: the companies of the registration form (PLN and its subsidiaries).

const area = defineArea("company", {
  "/list": {
    method: "GET",
    auth: false,
    doc: {
      summary: "The companies whose employees may register",
      data: list(object({ id: { type: "integer" }, name: { type: "string" } })),
    },
    handle: async () => ok((await listCompanies()).map(({ id, name }) => ({ id, name }))),
  },
});

export const COMPANY_AREA = area;
