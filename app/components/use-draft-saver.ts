import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";

/** How long typing may pause before the draft is saved in the background. */
const DRAFT_SAVE_DELAY_MS = 400;

/**
 * Spec §4 "any change is saved to a local draft": with JavaScript the form is posted in the
 * background (a fetcher, intent=draft, no revalidation) a moment after each change, and at once when
 * the buyer leaves (a navigation, the back arrow) or the tab is hidden or closed. The KTP file is
 * not part of it: the submit and 'Isi Alamat' send it. Without JavaScript every submit saves the draft.
 */
export function useDraftSaver(saved: Record<string, string | undefined>) {
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Changes made, and how many of them the server has confirmed: a save in flight when the page
  // goes may never arrive (a fetcher of an unmounted page), so only a confirmed save counts.
  const changes = useRef(0);
  const sent = useRef(0);
  const confirmed = useRef(0);
  const fetcher = useFetcher<{ draftSaved: boolean }>();
  const submit = useRef(fetcher.submit);
  submit.current = fetcher.submit;
  const abandon = useRef(fetcher.reset);
  abandon.current = fetcher.reset;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.draftSaved) confirmed.current = Math.max(confirmed.current, sent.current);
  }, [fetcher.state, fetcher.data]);

  const body = () => {
    const values = new FormData(formRef.current!);
    values.delete("ktp");
    values.delete("idempotencyKey");
    values.set("intent", "draft");
    return values;
  };
  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  const now = () => {
    cancel();
    if (!formRef.current) return;
    sent.current = changes.current;
    void submit.current(body(), { method: "post", action: "/checkout", encType: "multipart/form-data", defaultShouldRevalidate: false });
  };
  // What the form holds after the last change (the form itself is gone when the page unmounts).
  const latest = useRef<FormData | null>(null);
  const soon = () => {
    changes.current++;
    latest.current = body();
    cancel();
    timer.current = setTimeout(now, DRAFT_SAVE_DELAY_MS);
  };
  // The submit saves the draft itself.
  const submitted = () => {
    cancel();
    // A background save still on its way is dropped here (the submit carries the same values):
    // React Router would otherwise take its answer as the end of a revalidation and skip the
    // loaders of the submit's redirect when it differs only by its hash ('Ganti' beside the NIK
    // lands at /checkout#…), so the page stayed as it was until the next press.
    abandon.current();
    confirmed.current = changes.current;
  };

  // Leaving (another page of the store, the back arrow, closing or hiding the tab) with a change the
  // server has not confirmed: it goes at once, as a request that outlives the page.
  const flush = () => {
    const values = latest.current;
    if (changes.current === confirmed.current || !values) return;
    cancel();
    confirmed.current = changes.current;
    void fetch("/checkout", { method: "POST", body: values, keepalive: true, credentials: "same-origin" }).catch(() => {});
  };
  // What was typed or ticked before the scripts ran is a change too.
  useEffect(() => {
    if (formRef.current && differsFrom(formRef.current, saved)) soon();
  }, []);
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") flush();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", onHide);
    return () => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", onHide);
      // The page is going (another page of the store, the back arrow): its last change goes with it.
      flush();
    };
  }, []);
  return { formRef, soon, submitted };
}

/** Whether the form's text fields and boxes hold anything other than the draft it was drawn from. */
function differsFrom(form: HTMLFormElement, saved: Record<string, string | undefined>) {
  for (const element of Array.from(form.elements)) {
    if (
      !(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) ||
      !element.name ||
      element.name === "idempotencyKey"
    )
      continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox") {
      if (element.checked !== (saved[element.name] === "on")) return true;
    } else if (element.type !== "file" && element.type !== "hidden" && element.value !== (saved[element.name] ?? "")) return true;
  }
  return false;
}
