import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * For the webhook tests: a route's action behind a tiny HTTP server on a free loopback port,
 * standing in for the production server where a gateway (or its fake) sends notifications.
 * Answers the server (to close after the tests) and its address.
 */
export async function serveAction(action: (args: { request: Request }) => Promise<Response>) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(`http://localhost${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks),
    });
    const response = await action({ request });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
