import { Transform } from "node:stream";

const MODULE_PRELOAD = '<link rel="modulepreload"';
const HEAD_END = "</head>";

/**
 * Passes the document through, asking the browser to fetch the module preloads of the head at low
 * priority. Every page is complete HTML without JavaScript, so the first paint and the largest image
 * (fetchpriority="high") need none of the 120 KB of scripts, yet React Router's preloads are fetched
 * at high priority and, on a slow phone connection, compete with them for the first second.
 * Hydration starts a little later instead. Only the head is rewritten (React hoists the links there);
 * the rest of the stream passes untouched.
 */
export function lowPriorityModulePreloads(): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!head) return callback(null, chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(HEAD_END);
      if (end === -1) return callback();
      // `</head>` is ASCII, so the cut never splits a UTF-8 character.
      const rewritten = head.subarray(0, end).toString("utf8").replaceAll(MODULE_PRELOAD, `${MODULE_PRELOAD} fetchpriority="low"`);
      const rest = head.subarray(end);
      head = null;
      callback(null, Buffer.concat([Buffer.from(rewritten, "utf8"), rest]));
    },
    flush(callback) {
      callback(null, head?.length ? head : undefined);
    },
  });
}
