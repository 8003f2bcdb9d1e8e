import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { handleError } from "./entry.server";
import { log } from "./.server/log";

// Log floods (issue 9): expected answers write nothing; a real server error is logged once, with its stack.
describe("handleError", () => {
  const request = () => new Request("http://store.test/home", { method: "DELETE" });

  it.each([404, 405, 400, 403])("writes nothing for an expected %i", (status) => {
    const error = vi.spyOn(log, "error");
    handleError(new ErrorResponse(status, "x", `Error: You made a DELETE request to "/home" but did not provide an action`, true), {
      request: request(),
    });
    expect(error).not.toHaveBeenCalled();
  });

  it("logs a real error once, with its stack", () => {
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    const failure = new Error("database is gone");
    handleError(failure, { request: request() });
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]![0]).toMatchObject({ err: { message: "database is gone", stack: failure.stack } });
    // The setup counts a logged error as a test failure; this one was expected.
    error.mockClear();
    vi.restoreAllMocks();
  });
});
