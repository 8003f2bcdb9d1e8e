import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets parallel test runs build side by side; the default is ./build.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // React Router's own origin check would answer a foreign Origin with a plain-text 400 and a stack
  // trace in the log, before our middleware runs. Ours (app/.server/http/request.ts sameOriginMiddleware) is
  // stricter (Sec-Fetch-Site, `Origin: null`, resource routes too) and answers with the 'Akses
  // Ditolak' page, so React Router's check lets every origin through to it (decision 0006).
  allowedActionOrigins: ["**"],
  // The prepared database and demo images a first start copies (app/.server/db/client.ts,
  // demo-catalogue.ts), written by the server bundle just built so they match its migrations,
  // reference data and artwork.
  async buildEnd({ reactRouterConfig }) {
    const started = performance.now();
    const bundle = pathToFileURL(path.resolve(reactRouterConfig.buildDirectory, "server", "index.js")).href;
    // The template is the same whatever the gateway, but the store's configuration (read while it is
    // written: the queue's options, the settings' defaults) refuses production without one named
    // (issue 25); this build process names the sandbox for itself. The server still names its own.
    process.env.PAYMENT_GATEWAY ??= "sandbox";
    // Likewise DATA_ENCRYPTION_KEY (issue 35): the template holds no personal data, so a key that
    // lives only in this build process is enough. The server uses its own.
    process.env.DATA_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
    const { entry } = await import(/* @vite-ignore */ bundle);
    await entry.module.writeDatabaseTemplate();
    await entry.module.writePreparedDemoMedia();
    console.log(`prepared first-start database and demo images in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  },
  // React Router 8 made the v8 future flags this file used to turn on its only behaviour (middleware,
  // the Vite Environment API, trailing-slash-aware `.data` URLs, the raw request with a `url`
  // argument) and split route modules its default (`splitRouteModules`): decisions 0004 and 0040.
} satisfies Config;
