import { pingDb } from "~/.server/db/client";

/** 200 only when the database answers (container HEALTHCHECK, load balancers). */
export async function loader() {
  try {
    await pingDb();
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("healthz: database unavailable", error);
    return new Response("database unavailable", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}
