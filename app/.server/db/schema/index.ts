export * from "./reference";
export * from "./accounts";
export * from "./catalogue";
export * from "./orders";
export * from "./payments";
export * from "./balance";
export * from "./operators";
export * from "./messages";
