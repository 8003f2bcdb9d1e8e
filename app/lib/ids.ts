// Every table's id is a PostgreSQL `serial` (int4). An id past int4 from an address, a form or a
// JSON body would make the query itself fail (a 500): it is parsed here, once, and treated as the
// unknown thing it is (a 404, or the form's 'tidak valid').

/** The largest id PostgreSQL's integer holds. */
export const MAX_ID = 2_147_483_647;

/** A positive whole id (a number, or its decimal text without sign or leading zero) up to MAX_ID; anything else null. */
export function parseId(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_ID ? id : null;
}
