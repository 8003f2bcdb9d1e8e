import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

// The API's answers held to its own OpenAPI document (issue 46): the API's tests call through
// api-client.ts, which hands every answer here. The answer's status must be one the operation
// (path + method) lists, its content type one that status lists, and its body must match that
// status's schema, read as JSON Schema 2020-12 (what OpenAPI 3.1 says its schemas are).
//
// Objects are read closed: an object schema that does not say what it allows beyond its
// `properties` allows nothing else here, so a field the document does not name fails the test.
// The published document stays open (clients must tolerate additions; see decision 0075): only
// this reading is strict, and it is done by a copy of each schema, not by editing them all.

type Json = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> };
export type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, Operation>> };

export type ContractAnswer = { status: number; contentType: string | null; body: unknown };

const OPEN_KEYWORDS = ["additionalProperties", "unevaluatedProperties", "patternProperties"];

/** A copy of `schema` whose objects admit no property they do not name (see above). */
export function closeObjects(schema: unknown, insideAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closeObjects(item, insideAllOf));
  if (!schema || typeof schema !== "object") return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    // A branch of allOf is closed by its parent (unevaluatedProperties sees through allOf);
    // closing each branch alone would refuse the other branches' properties.
    copy[key] = key === "allOf" ? (value as unknown[]).map((item) => closeObjects(item, true)) : closeObjects(value);
  }
  const describesObject = copy.type === "object" || "properties" in copy || "allOf" in copy;
  if (describesObject && !insideAllOf && !OPEN_KEYWORDS.some((k) => k in copy)) copy.unevaluatedProperties = false;
  return copy;
}

const mediaType = (contentType: string | null) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * The checker of one document: `check(method, path, answer)` throws, naming the operation and
 * every way the answer departs from the document; `path` is below the document's `serverPath`.
 */
export function openApiContract(document: OpenApiDocument, serverPath: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction>();

  const operationOf = (method: string, path: string) => {
    const [pathname] = path.split("?") as [string];
    const key = `${serverPath}${pathname.replace(/\/+$/, "")}`;
    // HEAD is answered as GET (api.ts); OpenAPI documents it under get.
    const verb = method.toUpperCase() === "HEAD" ? "get" : method.toLowerCase();
    return { key, verb, operation: document.paths[key]?.[verb] };
  };

  return {
    /** Whether the document lists the call at all. */
    documents: (method: string, path: string) => operationOf(method, path).operation !== undefined,

    check(method: string, path: string, answer: ContractAnswer): void {
      const { key, verb, operation } = operationOf(method, path);
      const name = `${verb.toUpperCase()} ${key} → ${answer.status}`;
      if (!operation) throw new Error(`OpenAPI: ${verb.toUpperCase()} ${key} is not in the document`);
      const response = operation.responses?.[String(answer.status)];
      if (!response) {
        const listed = Object.keys(operation.responses ?? {}).join(", ");
        throw new Error(`OpenAPI: ${name}: the document lists only ${listed} for this call`);
      }
      const type = mediaType(answer.contentType);
      const media = response.content?.[type];
      if (!media) {
        const listed = Object.keys(response.content ?? {}).join(", ") || "no body";
        throw new Error(`OpenAPI: ${name}: content type ${type || "(none)"}, the document says ${listed}`);
      }
      if (!media.schema) return;
      const id = `${verb} ${key} ${answer.status} ${type}`;
      let validate = compiled.get(id);
      if (!validate) {
        validate = ajv.compile(closeObjects(media.schema) as Json);
        compiled.set(id, validate);
      }
      if (!validate(answer.body)) {
        // Where and what, never the values: answers hold personal data (the brief's rule on test output).
        const problems = (validate.errors ?? []).map((e) => {
          const extra = (e.params as { unevaluatedProperty?: string }).unevaluatedProperty;
          return `${e.instancePath || "/"} ${e.message}${extra ? ` (${extra})` : ""}`;
        });
        throw new Error(`OpenAPI: ${name}: the body does not match the document:\n  ${problems.join("\n  ")}`);
      }
    },
  };
}
