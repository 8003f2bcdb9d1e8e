import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createContext, createCookieSessionStorage, type MiddlewareFunction, type RouterContextProvider, type Session } from "react-router";
import { env } from "../env";
import { getSessionUser, type SessionUser } from "../store/people";
import type { Toast } from "~/lib/toast";
import { noteRequestUser } from "../log";
import { log } from "../log";

/**
 * The cookie holds only a random session id (its hash is a row in `sessions`) and one-shot flash
 * values (toasts, the system-error message). Everything about the user is read from the database on
 * every request, so `verified` is always fresh and a revoked session ends at once.
 */
type SessionData = { sid: string };
/** `savedSection`: a settings form's confirmation, shown inside its section (`section`: its anchor). */
type FlashData = { toast: Toast; errorMessage: string; modal: string; savedSection: { section: string; message: string } };

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, FlashData>> | undefined;

/** Options for the store's signed cookies (session, guest search history). */
export function signedCookieOptions(name: string, maxAgeSeconds: number) {
  const e = env();
  const secure = e.isProduction && e.appUrl.startsWith("https://");
  return {
    // The __Host- prefix pins the cookie to this host over HTTPS; browsers reject it on plain HTTP.
    name: secure ? `__Host-${name}` : name,
    httpOnly: true,
    sameSite: "lax" as const,
    secure,
    path: "/",
    secrets: sessionSecrets(),
    maxAge: maxAgeSeconds,
  };
}

function sessionStorage() {
  if (storage) return storage;
  storage = createCookieSessionStorage<SessionData, FlashData>({
    cookie: signedCookieOptions("store_session", 60 * 60 * 24 * 30),
  });
  return storage;
}

/** SESSION_SECRET, or a secret generated once and kept in DATA_DIR so restarts keep sessions. */
function sessionSecrets(): string[] {
  const e = env();
  if (e.sessionSecrets.length) return e.sessionSecrets;
  const file = path.join(e.dataDir, "session-secret");
  try {
    return [fs.readFileSync(file, "utf8").trim()];
  } catch {
    fs.mkdirSync(e.dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.writeFileSync(file, secret, { mode: 0o600 });
    if (e.isProduction) log.warn({ file }, "SESSION_SECRET is not set: generated one");
    return [secret];
  }
}

type RequestSession = {
  cookie: Session<SessionData, FlashData>;
  user: SessionUser | null;
  dirty: boolean;
};

const requestSessionContext = createContext<RequestSession>();

/** Root middleware: reads the session before the loaders and actions, writes the cookie after. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context, url }, next) => {
  // The JSON API knows no cookies (bearer tokens, app/.server/http/api.ts): it neither reads nor sets one.
  if (url.pathname.startsWith("/api/")) return next();
  const store = sessionStorage();
  const cookie = await store.getSession(request.headers.get("Cookie"));
  const sid = cookie.get("sid");
  const user = sid ? await getSessionUser(sid) : null;
  noteRequestUser(user?.id);
  const state: RequestSession = { cookie, user, dirty: false };
  if (sid && !user) {
    // Expired or revoked: forget it so the browser stops sending it.
    cookie.unset("sid");
    state.dirty = true;
  }
  context.set(requestSessionContext, state);
  const response = await next();
  if (state.dirty) {
    response.headers.append("Set-Cookie", await store.commitSession(state.cookie));
  }
  return response;
};

function current(context: Readonly<RouterContextProvider>) {
  return context.get(requestSessionContext);
}

export function getUser(context: Readonly<RouterContextProvider>): SessionUser | null {
  return current(context).user;
}

/** Starts a new session for the user (a fresh id every login: rotation). */
export function setSessionId(context: Readonly<RouterContextProvider>, sid: string | null) {
  const state = current(context);
  if (sid) state.cookie.set("sid", sid);
  else state.cookie.unset("sid");
  state.user = null;
  state.dirty = true;
}

export function getSessionId(context: Readonly<RouterContextProvider>): string | undefined {
  return current(context).cookie.get("sid");
}

export function flash<K extends keyof FlashData>(context: Readonly<RouterContextProvider>, key: K, value: FlashData[K]) {
  const state = current(context);
  state.cookie.flash(key, value);
  state.dirty = true;
}

/** Reads (and consumes) a flash value. */
export function takeFlash<K extends keyof FlashData>(context: Readonly<RouterContextProvider>, key: K): FlashData[K] | undefined {
  const state = current(context);
  if (!state.cookie.has(key)) return undefined;
  state.dirty = true;
  return state.cookie.get(key) as FlashData[K] | undefined;
}
