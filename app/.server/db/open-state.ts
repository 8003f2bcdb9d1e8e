// Whether this process has opened its database (client.ts sets it on first use). Without imports, so
// that the unit tests' setup can ask after a file whether there is anything to close, without
// loading the client and the schema for a file that never used them (issue 44).
export const databaseState = { opened: false };
