// Types of boundaries.mjs (plain JavaScript so that eslint.config.js can load it as it is).
import type { ESLint, Rule } from "eslint";

export const ROOT: string;
export const LAYERS: { name: string; test: (file: string) => boolean }[];
export function layerOf(file: string): number;
export function folderOf(file: string): string;
export function resolveImport(fromFile: string, specifier: string): string | null;
export function boundaryViolation(from: string, target: string): string | null;
export const boundariesRule: Rule.RuleModule;
export const TRANSPORT_NAMES: string[];
export const STORE_TRANSPORT_RULES: Record<string, unknown>;
declare const plugin: ESLint.Plugin;
export default plugin;
