import type { ZodMiniType } from "zod/mini";

// A schema's verdict on plain values, as every door and the store read it (issue 46 item 1): the web
// form's values (~/lib/forms parses a posted form with it), the API's JSON and the store's typed
// commands. Empty text counts as missing, so "required" messages come from the schema's
// missing-value error; messages are collected per field ("a.b" for nested ones), each once.

export type Checked<Output> = { success: true; value: Output } | { success: false; error: Record<string, string[]> };

export function checkValues<Schema extends ZodMiniType>(schema: Schema, values: unknown): Checked<Schema["_zod"]["output"]> {
  const result = schema.safeParse(withoutEmpty(values));
  if (result.success) return { success: true, value: result.data };
  const error: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const name = issue.path.map(String).join(".");
    const messages = (error[name] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return { success: false, error };
}

function withoutEmpty(value: unknown): unknown {
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (value instanceof File) return value.size === 0 && value.name === "" ? undefined : value;
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutEmpty(v)]));
  }
  return value;
}
