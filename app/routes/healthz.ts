import { pingDb } from "~/.server/db/client";
import { errorField, log } from "~/.server/log";

/** 200 only when the database answers (container HEALTHCHECK, load balancers). */
export async function loader() {
  try {
    await pingDb();
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch (error) {
    log.error({ err: errorField(error) }, "healthz: database unavailable");
    return new Response("database unavailable", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}
