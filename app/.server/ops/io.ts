/** Where an ops command writes: the CLI's stdout/stderr, or the ops socket's answer. */
export type OpsIO = { out: (line: string) => void; err: (line: string) => void };
