import { parse, type Submission, type SubmissionResult, useForm } from "@conform-to/react";
import { useMemo } from "react";
import type { ZodMiniType } from "zod/mini";
import { checkValues } from "./schemas/check";

/**
 * Conform's submission parsing with a zod/mini schema, used by the action and on blur in the browser.
 * (conform's own parseWithZod pulls in full zod for its coercion, ~60 KB more JavaScript.)
 * Empty fields count as missing (checkValues), so "required" messages come from the schema's
 * missing-value error; all values stay strings, and schemas convert what they need.
 */
export function parseForm<Schema extends ZodMiniType>(
  formData: FormData | URLSearchParams,
  schema: Schema,
): Submission<unknown, string[], Schema["_zod"]["output"]> {
  return parse(clipLongValues(formData), {
    resolve(payload) {
      const checked = checkValues(schema, payload);
      return checked.success ? { value: checked.value } : { error: checked.error };
    },
  }) as Submission<unknown, string[], Schema["_zod"]["output"]>;
}

/**
 * The typed input a fields schema makes of a posted form (a schema that never refuses: it only
 * reads the transport, e.g. checkoutFieldsSchema); the store judges that input with its rules.
 */
export function readFields<Schema extends ZodMiniType>(formData: FormData | URLSearchParams, schema: Schema): Schema["_zod"]["output"] {
  const submission = parseForm(formData, schema);
  if (submission.status !== "success") throw new Error("a fields schema refused a form: it must only read it");
  return submission.value;
}

/**
 * The reply of a form another module judged (the store's checkout workflow): the form re-renders
 * with what was posted (clipped as parseForm clips it) and those messages, `formErrors` above it.
 */
export function replyWithErrors(
  formData: FormData | URLSearchParams,
  errors: { formErrors?: string[]; fieldErrors: Record<string, string[] | undefined> },
): SubmissionResult<string[]> {
  const fieldErrors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(errors.fieldErrors)) if (messages?.length) fieldErrors[name] = messages;
  const submission = parse(clipLongValues(formData), { resolve: () => ({ error: fieldErrors }) });
  return errors.formErrors?.length ? submission.reply({ formErrors: errors.formErrors }) : submission.reply();
}

/**
 * Conform's form state for one schema, set up the same way on every form of the store: the server's
 * reply (`lastResult`) shows its messages, and in the browser the same schema checks a field when it
 * loses focus, then again on each keystroke once it has shown a message.
 *
 * After a failed submission, the first field with a message says so (`firstInvalid`, read by
 * <Field>): the server renders it with `autofocus`, so a page answered to a form posted without
 * JavaScript starts there. (With JavaScript conform moves the focus itself.)
 */
export function useSchemaForm<Schema extends ZodMiniType>(
  schema: Schema,
  options: { lastResult?: SubmissionResult<string[]>; defaultValue?: Record<string, string | null | undefined> },
) {
  // Fields are strings in the form (see parseForm); the schema's output is what the action receives.
  const [form, fields] = useForm<Record<string, string | undefined>, Schema["_zod"]["output"]>({
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    onValidate: ({ formData }) => parseForm(formData, schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const firstInvalid = form.status === "error" ? invalidFields(form.allErrors)[0] : undefined;
  const marked = useMemo(() => (firstInvalid ? markFirstInvalid(fields, firstInvalid) : fields), [fields, firstInvalid]);
  return [form, marked] as const;
}

/** Metadata of a field; `firstInvalid` is set by useSchemaForm on the first field with a message. */
export type MarkedField<Meta> = Meta & { firstInvalid?: boolean };

/** `fields` with the field `name` answering `firstInvalid: true` (conform's metadata are proxies). */
function markFirstInvalid<Fields extends object>(fields: Fields, name: string): Fields {
  return new Proxy(fields, {
    get(target, key, receiver) {
      const meta = Reflect.get(target, key, receiver);
      if (key !== name || !meta || typeof meta !== "object") return meta;
      return new Proxy(meta, { get: (m, k, r) => (k === "firstInvalid" ? true : Reflect.get(m, k, r)) });
    },
  });
}

/**
 * The fields that have a message, in `order` (the form's order) when given, else in the order the
 * schema reported them (its shape's order). Messages of the whole form (key "") are not a field's.
 */
export function invalidFields(allErrors: Record<string, string[] | undefined>, order?: string[]): string[] {
  const invalid = Object.keys(allErrors).filter((name) => name !== "" && allErrors[name]?.length);
  if (!order) return invalid;
  const position = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return invalid.sort((a, b) => position(a) - position(b));
}

/** Longer than any field the store accepts: validation still refuses it, and the re-rendered form
 * does not echo a megabyte back to the phone. */
const MAX_ECHOED_CHARS = 10_000;

function clipLongValues(formData: FormData | URLSearchParams): FormData | URLSearchParams {
  const clipped = formData instanceof URLSearchParams ? new URLSearchParams() : new FormData();
  for (const [name, value] of formData.entries()) {
    const kept = typeof value === "string" && value.length > MAX_ECHOED_CHARS ? value.slice(0, MAX_ECHOED_CHARS) : value;
    (clipped as FormData).append(name, kept as string | Blob);
  }
  return clipped;
}
