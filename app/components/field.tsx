import { type FieldMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import type { MarkedField } from "~/lib/forms";

type FieldProps = {
  meta: MarkedField<FieldMetadata<unknown, Record<string, unknown>, string[]>>;
  label: string;
  type?: "text" | "email" | "password" | "tel" | "number";
  hint?: React.ReactNode;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "type">;

/**
 * A labelled input with its error message under it (linked for screen readers by conform's ids).
 * After a failed submission the first field with a message has the focus: the server renders it
 * with `autofocus` (so the page answered to a form posted without JavaScript starts there), and
 * with JavaScript conform moves the focus itself. (useSchemaForm marks that field.)
 */
export function Field({ meta, label, type = "text", hint, ...rest }: FieldProps) {
  const { key, ...inputProps } = getInputProps(meta, { type, ariaAttributes: true });
  const autoFocus = meta.firstInvalid || rest.autoFocus || undefined;
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <input key={key} {...inputProps} {...rest} autoFocus={autoFocus} className={meta.errors ? "is-invalid" : undefined} />
      {hint ? <p className="field-hint">{hint}</p> : null}
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

type SelectFieldProps = {
  meta: MarkedField<FieldMetadata<unknown, Record<string, unknown>, string[]>>;
  label: string;
  placeholder: string;
  options: { value: string; label: string }[];
};

export function SelectField({ meta, label, placeholder, options }: SelectFieldProps) {
  const { key, ...selectProps } = getSelectProps(meta, { ariaAttributes: true });
  const autoFocus = meta.firstInvalid;
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <select key={key} {...selectProps} autoFocus={autoFocus || undefined} className={meta.errors ? "is-invalid" : undefined}>
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function FieldError({ id, errors }: { id?: string; errors?: string[] }) {
  return (
    <p id={id} className="field-error" role={errors?.length ? "alert" : undefined}>
      {errors?.[0] ?? ""}
    </p>
  );
}

/** Errors of the whole form (e.g. wrong e-mail or password). */
export function FormError({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return <div id={id} />;
  return (
    <div id={id} className="form-error" role="alert">
      {errors[0]}
    </div>
  );
}
