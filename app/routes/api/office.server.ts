import { defineArea, ok } from "~/.server/http/api";
import { list, object } from "~/.server/http/api-shapes";

// Spec §7 office/list: "defined, unused". The store keeps no offices: an empty list, so a client
// written against the spec gets a well-formed answer.

const area = defineArea("office", {
  "/list": {
    method: "GET",
    auth: false,
    doc: {
      summary: "Offices (the spec defines the call but no screen uses it): always empty",
      data: list(object({ id: { type: "integer" }, name: { type: "string" } })),
    },
    handle: async () => ok([]),
  },
});

export const OFFICE_AREA = area;
