import { API_PREFIX, runApi } from "~/.server/http/api";
import { API_AREAS } from "../../routes/api/openapi.server";

// For the API's tests: one call through the same dispatcher the resource routes use (area lookup,
// token check, envelope), with a real Request. Not a route module (routes.ts does not name it).

export type ApiAnswer = {
  status: number;
  body: { success: boolean; code: number; message: string; data: any; errors?: Record<string, string[]> };
  headers: Headers;
};

export async function callApi(
  method: string,
  path: string,
  options: { token?: string; json?: unknown; form?: FormData; headers?: Record<string, string>; address?: string } = {},
): Promise<ApiAnswer> {
  const [pathname] = path.split("?") as [string];
  const [, area = "", ...rest] = pathname.split("/");
  const definition = API_AREAS.find((a) => a.area === area);
  if (!definition) throw new Error(`no API area ${area}`);
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  headers.set("x-client-address", options.address ?? "203.0.113.7");
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    body = typeof options.json === "string" ? options.json : JSON.stringify(options.json);
    headers.set("content-type", "application/json");
  }
  const request = new Request(`http://store.test${API_PREFIX}${path}`, { method, headers, body });
  const response = await runApi(definition, request, rest.length ? `/${rest.join("/")}` : "");
  return { status: response.status, body: await response.json(), headers: response.headers };
}
