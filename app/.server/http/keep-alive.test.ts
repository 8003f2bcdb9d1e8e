import http from "node:http";
import net from "node:net";
import { expect, it } from "vitest";
import { configureKeepAlive } from "./serving";

// Problem seen in tests/e2e/backup.spec.ts: during a PGlite backup the event loop stalls for seconds,
// and a request sent on a kept-alive connection got `socket hang up` (ECONNRESET): the keep-alive
// timer ran before the waiting request was read. Here the connection is reused 3.9 s after its
// answer (Node's agent reuses it up to 4 s with `Keep-Alive: timeout=5`), and the event loop stalls
// 2.5 s right after the request is sent, in an I/O-phase callback as the backup's dump does.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it(
  "answers a request on a kept-alive connection through an event-loop stall past the keep-alive timeout",
  { timeout: 20_000 },
  async () => {
    const server = http.createServer((_req, res) => res.end("<html>ok</html>"));
    configureKeepAlive(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const socket = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    let received = "";
    let finished = false;
    socket.on("data", (chunk) => (received += chunk));
    const closed = new Promise<string>((resolve) => {
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on("close", () => resolve("closed"));
    });
    const answered = async () => {
      while (!received.includes("</html>") && !finished) await sleep(5);
      return "answered";
    };
    const request = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    try {
      socket.write(request);
      await answered();
      expect(received).toMatch(/keep-alive: timeout=5/i);
      received = "";
      await sleep(3_900);
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          socket.write(request);
          const until = Date.now() + 2_500;
          while (Date.now() < until); // the stall
          resolve();
        }),
      );
      expect(await Promise.race([answered(), closed])).toBe("answered");
    } finally {
      finished = true;
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  },
);
