import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import pino, { type DestinationStream, type Logger } from "pino";

/**
 * The server's one logger (issue 20): JSON lines in production (one object per line, for a log
 * collector), short readable lines in development, nothing in tests unless LOG_LEVEL asks for it.
 * Every line written while a request is served carries that request's id (`reqId`), so a buyer's
 * 'Kode kesalahan' on the 500 page leads to the request's line and to the error logged for it.
 *
 * Never logged (the redact paths below are the safety net; call sites pass no such values): passwords,
 * tokens, session ids, cookies, OTP codes, NIK, KTP or proof bytes, reset or activation secrets.
 */
export type RequestState = { reqId: string; userId?: number };

const requestStates = new AsyncLocalStorage<RequestState>();

/** Runs `serve` with `state` as the current request (server.js's request hook). */
export function runWithRequest<T>(state: RequestState, serve: () => T): T {
  return requestStates.run(state, serve);
}

/** The request being served, if any (its id for logs and the error page; the signed-in user). */
export function currentRequest(): RequestState | undefined {
  return requestStates.getStore();
}

/** The signed-in user of the request being served (set by the session middleware). */
export function noteRequestUser(userId: number | undefined) {
  const state = requestStates.getStore();
  if (state) state.userId = userId;
}

/** Field names whose values never reach the log, at the top level or one object down. */
export const REDACTED_FIELDS = [
  "password",
  "newPassword",
  "confirmPassword",
  "token",
  "secret",
  "sid",
  "sessionId",
  "cookie",
  "authorization",
  "otp",
  "code",
  "nik",
  "ktp",
  "proof",
  "bytes",
  "link",
];

const REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * The request's id: the X-Request-Id a trusted proxy set (only through trusted hops, and the entry
 * the outermost trusted proxy wrote, as for X-Forwarded-Proto: a client's own value in front of it
 * is not believed), else a new one.
 */
export function requestIdOf(header: string | string[] | undefined, trustedHops: number): string {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (trustedHops >= 1 && value) {
    const entries = value.split(",").map((entry) => entry.trim());
    const entry = entries[Math.max(0, entries.length - trustedHops)];
    if (entry && REQUEST_ID.test(entry)) return entry;
  }
  return crypto.randomBytes(8).toString("hex");
}

export type LogOptions = { level: string; pretty: boolean };

const LEVEL_NAMES: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** Development: `12:04:05 INFO  [reqId] message key=value …` instead of JSON. */
function readableLines(out: NodeJS.WritableStream): DestinationStream {
  return {
    write(line: string) {
      const { time, level, msg, reqId, err, ...rest } = JSON.parse(line) as Record<string, unknown>;
      const clock = new Date(String(time)).toTimeString().slice(0, 8);
      const fields = Object.entries(rest)
        .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
        .join(" ");
      const stack = err && typeof err === "object" && "stack" in err ? `\n${String((err as { stack: unknown }).stack)}` : "";
      out.write(
        `${clock} ${(LEVEL_NAMES[level as number] ?? String(level)).padEnd(5)} ${reqId ? `[${String(reqId)}] ` : ""}${msg ?? ""}${fields ? ` ${fields}` : ""}${stack}\n`,
      );
    },
  };
}

/** A logger with the store's settings; `destination` defaults to standard output (tests pass their own). */
export function createLogger(options: LogOptions, destination?: DestinationStream): Logger {
  const out = destination ?? (options.pretty ? readableLines(process.stdout) : pino.destination({ dest: 1, sync: true }));
  return pino(
    {
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label, number) => ({ level: options.pretty ? number : label }) },
      mixin: () => {
        const state = requestStates.getStore();
        return state ? { reqId: state.reqId } : {};
      },
      redact: { paths: REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`]), censor: "[redacted]" },
    },
    out,
  );
}

function defaultOptions(): LogOptions {
  const nodeEnv = process.env.NODE_ENV ?? "development";
  const level = process.env.LOG_LEVEL || (nodeEnv === "test" ? "silent" : "info");
  return { level, pretty: nodeEnv === "development" };
}

/** The process's logger (level from LOG_LEVEL, checked by env.ts; JSON unless NODE_ENV=development). */
export const log: Logger = createLogger(defaultOptions());

/**
 * What of an error's text may be written: drizzle's 'Failed query: …' message (and so its stack)
 * ends with the query's parameters ('params: Budi,3273…'), and some of PostgreSQL's own reasons
 * quote the value they refused ('invalid input syntax for type integer: "Budi"', 'value "…" is out
 * of range'). The statement and the reason stay; the values go (issue 35: no personal data in logs).
 */
export function withoutQueryValues(text: string): string {
  return text
    .replace(/\nparams: .*(?=\n {4}at |$)/gs, "\nparams: [redacted]")
    .replace(/(for type [\w ]+: |value |for encoding "\w+": |Key \(.*?\)=)"?\(?[^\n]*?\)?"?(?= is out of range|\n|$)/g, "$1[redacted]");
}

/** An error as a log field: its message and stack without the values a failed query carried, nothing else it may carry. */
export function errorField(error: unknown) {
  return error instanceof Error
    ? { type: error.name, message: withoutQueryValues(error.message), stack: error.stack && withoutQueryValues(error.stack) }
    : { message: withoutQueryValues(String(error)) };
}
