import { describe, expect, it } from "vitest";
import { closeObjects, openApiContract, type OpenApiDocument } from "./openapi-contract";

// The checker every API test goes through (api-client.ts): it must refuse each way an answer can
// depart from the document, or the API's tests would pass whatever the document says.

const json = "application/json; charset=utf-8";
const item = { type: "object", required: ["id"], properties: { id: { type: "integer" }, title: { type: "string" } } };
const document: OpenApiDocument = {
  openapi: "3.1.0",
  paths: {
    "/api/thing": {
      get: {
        responses: {
          "200": {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    item: { allOf: [item, { type: "object", properties: { stock: { type: "integer" } } }] },
                    maybe: { anyOf: [item, { type: "null" }] },
                    at: { type: "string", format: "date-time" },
                    free: { type: "object", additionalProperties: { type: "string" } },
                  },
                },
              },
            },
          },
          "404": { content: { "application/json": { schema: { type: "object", properties: { message: { type: "string" } } } } } },
        },
      },
    },
  },
};
const contract = openApiContract(document, "/api");
const check =
  (status: number, body: unknown, contentType: string | null = json, method = "GET", path = "/thing?x=1") =>
  () =>
    contract.check(method, path, { status, contentType, body });

describe("openApiContract", () => {
  it("passes an answer the document describes (allOf's branches together, anyOf, formats, open maps)", () => {
    expect(
      check(200, { item: { id: 1, title: "a", stock: 2 }, maybe: null, at: "2026-01-02T03:04:05.000Z", free: { a: "b" } }),
    ).not.toThrow();
    expect(check(200, { maybe: { id: 2 } })).not.toThrow();
    expect(check(404, { message: "Tidak ada." })).not.toThrow();
    expect(check(200, {}, json, "HEAD")).not.toThrow();
  });

  it("fails a status the operation does not list, naming the ones it does", () => {
    expect(check(201, {})).toThrow("GET /api/thing → 201: the document lists only 200, 404 for this call");
  });

  it("fails a field the document does not name, at any depth, in allOf and in anyOf", () => {
    expect(check(200, { extra: 1 })).toThrow("/ must NOT have unevaluated properties (extra)");
    expect(check(200, { item: { id: 1, secret: "x" } })).toThrow("/item must NOT have unevaluated properties (secret)");
    expect(check(200, { maybe: { id: 1, secret: "x" } })).toThrow("/maybe");
  });

  it("fails a wrong type, a missing required field, a bad format, and never prints the values", () => {
    const wrong = check(200, { item: { title: "Siti Rahma" }, at: "kemarin", maybe: { id: "1" } });
    expect(wrong).toThrow("/item must have required property 'id'");
    expect(wrong).toThrow('/at must match format "date-time"');
    expect(wrong).toThrow("/maybe/id must be integer");
    expect(wrong).not.toThrow(/Siti|kemarin/);
  });

  it("fails a content type the status does not list, and a call the document does not have", () => {
    expect(check(200, "<html>", "text/html")).toThrow("content type text/html, the document says application/json");
    expect(check(200, {}, null)).toThrow("content type (none)");
    expect(check(200, {}, json, "POST")).toThrow("POST /api/thing is not in the document");
    expect(check(200, {}, json, "GET", "/nowhere")).toThrow("GET /api/nowhere is not in the document");
    expect(contract.documents("GET", "/thing/")).toBe(true);
    expect(contract.documents("PUT", "/thing")).toBe(false);
  });

  it("closes a copy of the schema, leaving the document as it was", () => {
    const schema = { type: "object", properties: { a: item } };
    const before = JSON.stringify(schema);
    expect(closeObjects(schema)).toMatchObject({ unevaluatedProperties: false, properties: { a: { unevaluatedProperties: false } } });
    expect(JSON.stringify(schema)).toBe(before);
  });
});
