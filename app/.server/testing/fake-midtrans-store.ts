import type http from "node:http";
import { afterAll, beforeAll } from "vitest";
import { type FakeMidtrans, startFakeMidtrans } from "../../../tests/fakes/midtrans";
import { getDb } from "../db/client";
import { resetEnvForTests } from "../env";
import { serveAction } from "./action-server";

/** The server key the fake Midtrans signs with and the store is configured with. */
export const FAKE_MIDTRANS_SERVER_KEY = "SB-Mid-server-TEST_only_0123456789";

const MIDTRANS_ENV = ["APP_URL", "PAYMENT_GATEWAY", "MIDTRANS_SERVER_KEY", "MIDTRANS_API_URL", "MIDTRANS_SNAP_URL"] as const;

/**
 * The calling test file's store with Midtrans as its gateway, against the fake Midtrans
 * (tests/fakes/midtrans.ts, real HTTP): the webhook route's action behind a tiny HTTP front, where
 * the fake sends its notifications. Registers the file's beforeAll (start, configure) and afterAll
 * (the environment as it was, both servers closed); `fake` is there once beforeAll has run.
 */
export function storeOnFakeMidtrans(webhookAction: Parameters<typeof serveAction>[0]): { fake: FakeMidtrans } {
  const handle = {} as { fake: FakeMidtrans };
  const savedEnv = { ...process.env };
  let front: http.Server | undefined;
  beforeAll(async () => {
    await getDb();
    const served = await serveAction(webhookAction);
    front = served.server;
    handle.fake = await startFakeMidtrans({ serverKey: FAKE_MIDTRANS_SERVER_KEY, notificationUrl: `${served.url}/webhooks/midtrans` });
    Object.assign(process.env, {
      APP_URL: served.url,
      PAYMENT_GATEWAY: "midtrans",
      MIDTRANS_SERVER_KEY: FAKE_MIDTRANS_SERVER_KEY,
      MIDTRANS_API_URL: handle.fake.url,
      MIDTRANS_SNAP_URL: handle.fake.url,
    });
    resetEnvForTests();
  });
  afterAll(async () => {
    for (const key of MIDTRANS_ENV) {
      if (savedEnv[key] === undefined) delete process.env[key];
      else process.env[key] = savedEnv[key];
    }
    resetEnvForTests();
    await handle.fake?.close();
    await new Promise((resolve) => front?.close(resolve));
  });
  return handle;
}
