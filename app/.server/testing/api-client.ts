import { API_PREFIX, type ApiArea, runApi } from "~/.server/http/api";

// For the API's tests: one call through the same dispatcher the resource routes use (area lookup,
// token check, envelope), with a real Request. Not a route module (routes.ts does not name it).
// The API's areas are given by its tests (`apiCaller(API_AREAS)`): support code does not import screens.

export type ApiAnswer = {
  status: number;
  body: { success: boolean; code: number; message: string; data: any; errors?: Record<string, string[]> };
  headers: Headers;
};

export type ApiCallOptions = { token?: string; json?: unknown; form?: FormData; headers?: Record<string, string>; address?: string };

/** `callApi(method, path, options)` over the given areas, e.g. `apiCaller(API_AREAS)("GET", "/order/list")`. */
export function apiCaller(areas: readonly ApiArea[]) {
  return (method: string, path: string, options: ApiCallOptions = {}) => callApi(areas, method, path, options);
}

async function callApi(areas: readonly ApiArea[], method: string, path: string, options: ApiCallOptions): Promise<ApiAnswer> {
  const [pathname] = path.split("?") as [string];
  const [, area = "", ...rest] = pathname.split("/");
  const definition = areas.find((a) => a.area === area);
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
