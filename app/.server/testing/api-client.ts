import { API_PREFIX, type ApiArea, runApi } from "~/.server/http/api";
import { openApiContract, type OpenApiDocument } from "./openapi-contract";

// For the API's tests: one call through the same dispatcher the resource routes use (area lookup,
// token check, envelope), with a real Request. Not a route module (routes.ts does not name it).
// The API's areas and document are given by its tests (`apiCaller(API_AREAS, buildOpenApi(...))`):
// support code does not import screens. Every answer is checked against the document
// (openapi-contract.ts), so each API test also tests that the document tells the truth (issue 46).

export type ApiAnswer = {
  status: number;
  body: { success: boolean; code: number; message: string; data: any; errors?: Record<string, string[]> };
  headers: Headers;
};

export type ApiCallOptions = {
  token?: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  address?: string;
  /** A call the document must not list (an unknown path, a wrong method): its answer must be an error. */
  outsideDocument?: true;
};

/** `callApi(method, path, options)` over the given areas, e.g. `apiCaller(API_AREAS, document)("GET", "/order/list")`. */
export function apiCaller(areas: readonly ApiArea[], document: object) {
  const contract = openApiContract(document as OpenApiDocument, API_PREFIX);
  return async (method: string, path: string, options: ApiCallOptions = {}) => {
    const answer = await callApi(areas, method, path, options);
    if (!options.outsideDocument) {
      contract.check(method, path, { status: answer.status, contentType: answer.headers.get("content-type"), body: answer.body });
    } else if (contract.documents(method, path) || answer.status < 400) {
      throw new Error(`OpenAPI: ${method} ${path} is marked outside the document, but it is listed or it succeeded (${answer.status})`);
    }
    return answer;
  };
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
