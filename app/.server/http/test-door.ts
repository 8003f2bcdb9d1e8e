// The end-to-end tests' preconditions door (issue 44, decision 0066: routes/test-preconditions.ts and
// routes/test-order.ts) exists only on a server started with STORE_TEST_DOOR=1 (the e2e configs and
// tests/e2e/helpers/store-server.ts set it). On any other server, production included, every request
// to it answers 404 as an unknown address does (app/routes/test-preconditions.test.ts).
export const testDoorOpen = () => process.env.STORE_TEST_DOOR === "1";

export const testDoorNotFound = () => new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
