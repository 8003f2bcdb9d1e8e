import { type FieldMetadata, getTextareaProps } from "@conform-to/react";
import { FieldError } from "./field";

type TextareaFieldProps = {
  meta: FieldMetadata<unknown, Record<string, unknown>, string[]>;
  label: string;
  hint?: React.ReactNode;
} & React.TextareaHTMLAttributes<HTMLTextAreaElement>;

/** A labelled text area with its error message under it (the textarea twin of Field). */
export function TextareaField({ meta, label, hint, ...rest }: TextareaFieldProps) {
  const { key, ...textareaProps } = getTextareaProps(meta, { ariaAttributes: true });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <textarea key={key} rows={3} {...textareaProps} {...rest} className={meta.errors ? "is-invalid" : undefined} />
      {hint ? <p className="field-hint">{hint}</p> : null}
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
