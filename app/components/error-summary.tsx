import { useEffect, useRef } from "react";
import { invalidFields } from "~/lib/forms";

type ErrorSummaryProps = {
  /** What it reads of any form's Conform metadata (FormMetadata of whatever schema). */
  form: { id: string; status?: "success" | "error"; allErrors: Record<string, string[]> };
  /** The forms' field labels by field name, in the order the fields appear. */
  labels: Record<string, string>;
};

/**
 * Shown at the top of a form once a submission failed (the server's reply, or the browser's check
 * on submit): an alert naming each field to fix, each a link to the field. Without JavaScript the
 * page comes back at the top, so this is the first thing read; the link jumps to the field (its
 * label stays visible: fields have a scroll margin for the sticky bar). With JavaScript a tap also
 * puts the cursor in the field. The messages themselves stay next to the fields.
 *
 * One line in a form, under <FormError>:  <ErrorSummary form={form} labels={LABELS} />
 */
export function ErrorSummary({ form, labels }: ErrorSummaryProps) {
  const names = form.status === "error" ? invalidFields(form.allErrors, Object.keys(labels)) : [];
  const summary = useRef<HTMLDivElement>(null);
  const shown = names.join(",");
  // With JavaScript the page does not come back at the top: the browser stays where the submit
  // button was, and the first field to fix takes the focus (scrolled just into view). The summary
  // above it is brought on screen too, when it is not, so the whole list is read (the field keeps
  // the focus).
  useEffect(() => {
    const element = summary.current;
    if (!shown || !element) return;
    const box = element.getBoundingClientRect();
    // Under the sticky bar's clearance (its scroll margin) or past the screen's bottom: not all read.
    if (box.top < parseFloat(getComputedStyle(element).scrollMarginTop || "0") || box.bottom > window.innerHeight)
      element.scrollIntoView({ block: "start" });
  }, [shown]);
  if (!names.length) return null;
  // Conform names a field's element `${form id}-${field name}` (what <Field> renders).
  const fieldId = (name: string) => `${form.id}-${name}`;
  return (
    <div ref={summary} className="error-summary" role="alert" aria-labelledby={`${form.id}-summary-title`} data-testid="error-summary">
      <h2 id={`${form.id}-summary-title`} className="error-summary-title">
        {names.length === 1 ? "Ada 1 isian yang perlu diperbaiki:" : `Ada ${names.length} isian yang perlu diperbaiki:`}
      </h2>
      <ul className="error-summary-list">
        {names.map((name) => (
          <li key={name}>
            <a
              href={`#${fieldId(name)}`}
              onClick={(event) => {
                const field = document.getElementById(fieldId(name));
                if (!field) return;
                event.preventDefault();
                // The whole field (label, input, message) to the top, below the sticky bar (its scroll margin).
                (field.closest(".field") ?? field).scrollIntoView({ block: "start" });
                field.focus({ preventScroll: true });
              }}
            >
              {labels[name] ?? name}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
