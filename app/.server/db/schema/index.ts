export * from "./reference";
export * from "./accounts";
export * from "./catalogue";
export * from "./orders";
export * from "./balance";
