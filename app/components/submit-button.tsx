import { useRef } from "react";
import { useFetchers, useNavigation } from "react-router";

type SubmitButtonProps = Omit<React.ButtonHTMLAttributes<HTMLButtonElement>, "type"> & {
  /** What the button says while its form is on its way (default 'Memproses…'). */
  pendingLabel?: string;
  /** For a form that navigates by itself (e.g. with `navigate()`): whether that is under way. */
  pending?: boolean;
};

const PENDING_LABEL = "Memproses…";

/**
 * The submit button of every form: while ITS form is being submitted (a navigation or a fetcher
 * whose action is this form's), it says 'Memproses…' with a spinner and is `aria-busy`, and a second
 * tap does nothing. It stays focusable (aria-disabled, not disabled), so a keyboard or screen-reader
 * user does not lose their place. Without JavaScript it is a plain submit button.
 */
export function SubmitButton({
  children,
  pendingLabel = PENDING_LABEL,
  pending: pendingElsewhere,
  className = "btn btn-primary",
  onClick,
  ...rest
}: SubmitButtonProps) {
  const button = useRef<HTMLButtonElement>(null);
  const pending = useFormPending(button) || !!pendingElsewhere;
  return (
    <button
      {...rest}
      ref={button}
      type="submit"
      className={`${className}${pending ? " is-pending" : ""}`}
      aria-busy={pending || undefined}
      aria-disabled={pending || rest["aria-disabled"] || undefined}
      onClick={(event) => {
        if (pending) event.preventDefault();
        else onClick?.(event);
      }}
    >
      {pending ? (
        <>
          <span className="spinner" aria-hidden="true" />
          {pendingLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** True while the form that owns `button` is being submitted through React Router. */
function useFormPending(button: React.RefObject<HTMLButtonElement | null>): boolean {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const submissions = [navigation, ...fetchers].filter((s) => s.state !== "idle" && s.formData !== undefined && s.formAction !== undefined);
  // Re-rendered whenever the navigation or a fetcher changes, after the button is mounted.
  const form = button.current?.form;
  if (!submissions.length || !form) return false;
  const action = addressOf(form.action);
  const method = (form.getAttribute("method") ?? "get").toUpperCase();
  return submissions.some((s) => s.formMethod?.toUpperCase() === method && addressOf(s.formAction!) === action);
}

/** Path and query of an action, as React Router and the form element spell it. */
function addressOf(action: string): string {
  const url = new URL(action, "http://same.invalid");
  url.searchParams.delete("index");
  return url.pathname.replace(/\/$/, "") + url.search;
}
