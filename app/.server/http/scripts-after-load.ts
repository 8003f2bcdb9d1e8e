import { Transform } from "node:stream";
import { HELD_ATTRIBUTE } from "~/lib/scripts-after-load";

/**
 * What React Router writes to start the page's scripts, and the inert form each is held in until
 * the page has loaded (~/lib/scripts-after-load, decision 0016): a link without a `rel` fetches
 * nothing, a script of an unknown type runs nothing. React escapes every `"` of page content in
 * attributes and text, so these exact byte strings only ever come from React Router's <Scripts>,
 * which writes its module script once, after all its preloads.
 */
const PRELOAD = { from: Buffer.from('<link rel="modulepreload"'), to: Buffer.from(`<link ${HELD_ATTRIBUTE}="modulepreload"`) };
const MODULE_SCRIPT = { from: Buffer.from('type="module" async=""'), to: Buffer.from(`type="text/plain" ${HELD_ATTRIBUTE}="module"`) };
const HOLDS = [PRELOAD, MODULE_SCRIPT];
const LONGEST = Math.max(...HOLDS.map(({ from }) => from.length));

/** `input` with every pattern in its held form, and whether the module script was among them. */
function holdAll(input: Buffer): { output: Buffer; moduleScriptHeld: boolean } {
  let output = input;
  let moduleScriptHeld = false;
  for (const hold of HOLDS) {
    let found = output.indexOf(hold.from);
    if (found === -1) continue;
    if (hold === MODULE_SCRIPT) moduleScriptHeld = true;
    const parts: Buffer[] = [];
    let at = 0;
    for (; found !== -1; found = output.indexOf(hold.from, at)) {
      parts.push(output.subarray(at, found), hold.to);
      at = found + hold.from.length;
    }
    output = Buffer.concat([...parts, output.subarray(at)]);
  }
  return { output, moduleScriptHeld };
}

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
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!scanning) return callback(null, chunk);
      const { output: text, moduleScriptHeld } = holdAll(pending.length ? Buffer.concat([pending, chunk]) : chunk);
      scanning = !moduleScriptHeld;
      // Only the bytes that may begin a pattern wait for the next chunk; the rest goes out now.
      const cut = scanning ? text.length - partialMatchAtEnd(text) : text.length;
      pending = text.subarray(cut);
      callback(null, cut > 0 ? text.subarray(0, cut) : undefined);
    },
    flush(callback) {
      callback(null, pending.length ? pending : undefined);
    },
  });
}
