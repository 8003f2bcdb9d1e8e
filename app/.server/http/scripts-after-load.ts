import { Transform } from "node:stream";
import { HELD_ATTRIBUTE } from "~/lib/scripts-after-load";

/**
 * What React Router writes to start the page's scripts, and the inert form each is held in until
 * the page has loaded (~/lib/scripts-after-load, decision 0016): a module preload inside a
 * `<template>` (its content is parsed but not part of the page, so nothing is fetched), the module
 * script with a type the browser does not run. Both are valid HTML. React escapes every `"` of page
 * content in attributes and text, so these exact byte strings only ever come from React Router's
 * <Scripts>, which writes its module script once, after all its preloads.
 */
const PRELOAD = {
  from: Buffer.from('<link rel="modulepreload"'),
  to: Buffer.from(`<template ${HELD_ATTRIBUTE}="modulepreload"><link rel="modulepreload"`),
};
const MODULE_SCRIPT = { from: Buffer.from('type="module" async=""'), to: Buffer.from(`type="text/plain" ${HELD_ATTRIBUTE}="module"`) };
const HOLDS = [PRELOAD, MODULE_SCRIPT];
const LONGEST = Math.max(...HOLDS.map(({ from }) => from.length));
/** Closes a held preload's template after the link's own end (React escapes `>` in attribute values). */
const TAG_END = ">".charCodeAt(0);
const TEMPLATE_END = Buffer.from("</template>");

/** How many bytes at the end of `text` could be the start of a pattern cut by the chunk's end. */
function partialMatchAtEnd(text: Buffer): number {
  for (let at = Math.max(0, text.length - LONGEST + 1); at < text.length; at++) {
    const end = text.subarray(at);
    if (HOLDS.some(({ from }) => from[0] === end[0] && from.subarray(0, end.length).equals(end))) return end.length;
  }
  return 0;
}

/**
 * Passes the document through with React Router's script tags in their held form. Once the module
 * script has gone by, the rest of the document (the streamed data) passes untouched.
 */
export function holdScriptsUntilLoad(): Transform {
  let pending: Buffer = Buffer.alloc(0);
  let scanning = true;
  /** Inside a held preload's `<link …`: its template closes after the tag's `>`. */
  let inPreload = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!scanning && !inPreload) return callback(null, chunk);
      const text = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const out: Buffer[] = [];
      let at = 0;
      pending = Buffer.alloc(0);
      while (at < text.length) {
        if (inPreload) {
          const end = text.indexOf(TAG_END, at);
          if (end === -1) break;
          out.push(text.subarray(at, end + 1), TEMPLATE_END);
          at = end + 1;
          inPreload = false;
          continue;
        }
        if (!scanning) break;
        const preload = text.indexOf(PRELOAD.from, at);
        const script = text.indexOf(MODULE_SCRIPT.from, at);
        const hold = preload !== -1 && (script === -1 || preload < script) ? PRELOAD : script !== -1 ? MODULE_SCRIPT : null;
        if (!hold) {
          // Only the bytes that may begin a pattern wait for the next chunk; the rest goes out now.
          const cut = text.length - partialMatchAtEnd(text.subarray(at));
          out.push(text.subarray(at, cut));
          pending = Buffer.from(text.subarray(cut));
          at = text.length;
          break;
        }
        const found = hold === PRELOAD ? preload : script;
        out.push(text.subarray(at, found), hold.to);
        at = found + hold.from.length;
        if (hold === PRELOAD) inPreload = true;
        else scanning = false;
      }
      if (at < text.length) out.push(text.subarray(at));
      const output = Buffer.concat(out);
      callback(null, output.length ? output : undefined);
    },
    flush(callback) {
      callback(null, pending.length ? pending : undefined);
    },
  });
}
