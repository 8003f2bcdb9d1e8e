import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { FieldError } from "./field";

type CheckboxFieldProps = {
  meta: FieldMetadata<unknown, Record<string, unknown>, string[]>;
  /** The statement the user ticks (the whole row is the tap target). */
  children: React.ReactNode;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "type" | "children">;

/** A checkbox with its statement as the label and its error message under it. */
export function CheckboxField({ meta, children, className, ...rest }: CheckboxFieldProps) {
  const { key, ...inputProps } = getInputProps(meta, { type: "checkbox", ariaAttributes: true });
  return (
    <div className={className ? `field check-field ${className}` : "field check-field"}>
      <label className="check-row">
        <input key={key} {...inputProps} {...rest} />
        <span>{children}</span>
      </label>
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
