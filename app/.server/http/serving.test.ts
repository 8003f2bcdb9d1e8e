import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "../log";
import { installRequestLog, loggedPath } from "./serving";

// Issue 45 item 13: the 'Unduh Data Saya' link's id is its secret; the request log kept it in `path`.

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the request log", () => {
  it("writes the data-export link without its secret id", async () => {
    const secret = "Q".repeat(43);
    const lines: Record<string, unknown>[] = [];
    vi.spyOn(log, "info").mockImplementation(((line: Record<string, unknown>) => {
      lines.push(line);
    }) as never);
    const app = express();
    installRequestLog(app, () => "routes/data-export");
    app.use((_req, res) => {
      res.status(404).end();
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect((await fetch(`http://127.0.0.1:${port}/profile/data-saya/${secret}`)).status).toBe(404);
      await vi.waitFor(() => expect(lines).toHaveLength(1));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(lines[0]).toMatchObject({ route: "routes/data-export", path: "/profile/data-saya/:id", status: 404 });
    expect(JSON.stringify(lines)).not.toContain(secret);
    // Other paths are written as they are.
    expect(loggedPath("/transaction-detail/12")).toBe("/transaction-detail/12");
  });
});
