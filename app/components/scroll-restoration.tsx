import { UNSAFE_useScrollRestoration as useScrollRestoration } from "react-router";
import { SCROLL_POSITIONS_KEY } from "~/lib/scripts-after-load";

/**
 * React Router's scroll restoration (positions saved per history entry in sessionStorage, restored
 * on back, forward and reload) with a lighter inline script than its <ScrollRestoration> (decision
 * 0047). Its script gave every new history entry a key and read sessionStorage while the page was
 * still being parsed: the first storage access of a page waits for the browser process, about 7 ms
 * on a fast machine, inside the task that parses the page. An entry without a key has nothing
 * stored, so this one reads only for an entry that has one (a reload, back or forward); the key of a
 * new entry is given when the scripts start (START_SCRIPTS), before React Router reads it.
 */
export function ScrollRestoration({ nonce }: { nonce?: string }) {
  useScrollRestoration({ storageKey: SCROLL_POSITIONS_KEY });
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: RESTORE_SCROLL }} />;
}

const RESTORE_SCROLL = `(() => {
  const key = history.state && history.state.key;
  if (!key) return;
  try {
    const y = JSON.parse(sessionStorage.getItem(${JSON.stringify(SCROLL_POSITIONS_KEY)}) || "{}")[key];
    if (typeof y === "number") scrollTo(0, y);
  } catch {
    sessionStorage.removeItem(${JSON.stringify(SCROLL_POSITIONS_KEY)});
  }
})();`;
