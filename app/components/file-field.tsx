import type { ReactNode } from "react";

/**
 * A file picker for a form posted as multipart (the proof sheets): its label, what it accepts, a
 * hint, and the server's message when the upload was refused (the input then points to it). Its own
 * module: the payment page uses it without the forms' code (Conform) in its first load.
 */
export function FileField({
  id,
  label,
  accept,
  multiple,
  hint,
  error,
}: {
  id: string;
  label: string;
  accept: string;
  multiple?: boolean;
  hint: ReactNode;
  error: string | null;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        type="file"
        multiple={multiple}
        accept={accept}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
      />
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
