// The store's JSON API (issue 19) from a script: scripts/api-buyer.mjs (a whole purchase) and
// scripts/bench-lighthouse.mjs (the order its /payment/{id} shows) call it the same way.

/**
 * A client of `${base}/api/core/api/v1`. `call(method, pathname, { json, form, headers, expect })`
 * answers the envelope's `data`, or throws an Error naming the call and the server's message.
 * `headers` go with every call; `client.token` (set after a login) goes as the bearer token.
 */
export function apiClient(base, headers = {}) {
  const api = `${base}/api/core/api/v1`;
  const client = {
    token: null,
    async call(method, pathname, { json, form, headers: extra = {}, expect = [200, 201] } = {}) {
      const init = { method, headers: { ...headers, ...extra } };
      if (client.token) init.headers.Authorization = `Bearer ${client.token}`;
      if (form) init.body = form;
      else if (json !== undefined) {
        init.body = JSON.stringify(json);
        init.headers["Content-Type"] = "application/json";
      }
      let response;
      for (let attempt = 0; !response; attempt++) {
        try {
          response = await fetch(`${api}${pathname}`, init);
        } catch (error) {
          // A kept-alive connection the server closed meanwhile (e.g. while the ops CLI ran): the
          // request never reached the server (it closes only idle connections), so it is sent again
          // once, on a new one.
          if (attempt === 0 && error.cause?.code === "UND_ERR_SOCKET") continue;
          throw new Error(`${method} ${pathname}: ${error.cause?.code ?? error.message} (is the store running at ${base}?)`);
        }
      }
      const body = await response.json().catch(() => null);
      if (!body || typeof body.success !== "boolean")
        throw new Error(`${method} ${pathname}: HTTP ${response.status} without the API's envelope`);
      if (!expect.includes(response.status))
        throw new Error(
          `${method} ${pathname}: HTTP ${response.status} ${body.message}${body.errors ? ` ${JSON.stringify(body.errors)}` : ""}`,
        );
      return body.data;
    },
  };
  return client;
}

/** A delivery address the API accepts: the first province, city, district and village it lists. */
export async function firstAddress(call) {
  const [provinsi] = await call("GET", "/location/provinsi");
  const [kota] = await call("GET", `/location/kota?provinsiId=${provinsi.id}`);
  const [kecamatan] = await call("GET", `/location/kecamatan?kotaId=${kota.id}`);
  const [kelurahan] = await call("GET", `/location/kelurahan?kecamatanId=${kecamatan.id}`);
  return {
    fullAddress: "Jl. Contoh No. 1",
    provinsiId: provinsi.id,
    kotaId: kota.id,
    kecamatanId: kecamatan.id,
    kelurahanId: kelurahan.id,
    kodePos: "40111",
  };
}
