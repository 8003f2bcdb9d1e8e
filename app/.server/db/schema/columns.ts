import { customType } from "drizzle-orm/pg-core";

// Column types the schema modules share (not tables: schema/index.ts does not export this file).

/** Raw bytes (PostgreSQL bytea); both drivers hand them over as a Buffer/Uint8Array. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });
