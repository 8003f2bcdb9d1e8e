import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { boundaryViolation, folderOf, LAYERS, layerOf, resolveImport, ROOT } from "./boundaries.mjs";

// The code's structure, checked (issue 34 items 2 and 4): the boundary rule itself (through ESLint's
// own API, as `npm run lint` runs it), no import circle between files or folders of app/, every
// import going down the layers, and no production module over MAX_LINES.

const MAX_LINES = 400;
/**
 * No exemption (issue 46 item 5): the 'Long module:' reasons that once let seven modules pass 400
 * lines are gone, each module split along its seam. A module over the limit is split, not excused.
 */

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const file = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "migrations") found.push(...sourceFiles(file));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(file);
  }
  return found;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Each production module of app/ with the app/ modules it imports (static, re-exports and dynamic). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles("app")) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2]!);
      if (target?.startsWith("app/") && /\.tsx?$/.test(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The circles of a graph (its strongly connected components of more than one node, or a self-loop). */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the boundary rule (ESLint, as npm run lint runs it)", () => {
  const eslint = new ESLint({ cwd: ROOT });
  const boundaryErrors = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result!.messages.filter((message) => message.ruleId === "store/boundaries").map((message) => message.message);
  };

  it("fails a route that imports a store domain's inner module, and passes its index", async () => {
    expect(
      await boundaryErrors("app/routes/boundary-probe.ts", 'export { getOrderDetail } from "~/.server/store/orders/orders";\n'),
    ).toEqual([expect.stringContaining("inside the orders domain: import its index (~/.server/store/orders)")]);
    expect(await boundaryErrors("app/routes/boundary-probe.ts", 'export { getOrderDetail } from "~/.server/store/orders";\n')).toEqual([]);
  }, 60_000);

  it("fails a domain reaching into another one, code outside the gateway past gateway/index.ts, buyer code importing the back office, and an upward import", async () => {
    expect(await boundaryErrors("app/.server/store/checkout/probe.ts", 'export { x } from "../payments/settlement";\n')).toHaveLength(1);
    expect(await boundaryErrors("app/.server/store/payments/probe.ts", 'export { x } from "../../gateway/midtrans";\n')).toHaveLength(1);
    expect(await boundaryErrors("app/components/probe.tsx", 'export { loader } from "~/routes/ops/home";\n')).toEqual([
      expect.stringContaining("buyer code may not import the back office or the API"),
    ]);
    expect(await boundaryErrors("app/.server/db/probe.ts", 'export { x } from "../gateway";\n')).toEqual([
      expect.stringContaining("the db (app/.server/db) layer may not import the higher gateway"),
    ]);
    expect(await boundaryErrors("app/.server/store/orders/probe.ts", 'export { readForm } from "~/.server/http/request";\n')).toHaveLength(
      1,
    );
    expect(await boundaryErrors("app/routes/ops/probe.tsx", 'export { x } from "~/.server/store/back-office";\n')).toEqual([]);
  }, 60_000);

  it("keeps test support out of production code and screens out of test support", async () => {
    expect(await boundaryErrors("app/routes/ops/probe.tsx", 'export { Browser } from "~/.server/testing/test-browser";\n')).toEqual([
      expect.stringContaining("is test support: only tests import it"),
    ]);
    expect(await boundaryErrors("app/routes/ops/probe.test.ts", 'export { Browser } from "~/.server/testing/test-browser";\n')).toEqual([]);
    expect(await boundaryErrors("app/.server/testing/probe.ts", 'export { API_AREAS } from "~/routes/api/openapi.server";\n')).toEqual([
      expect.stringContaining("the test support (app/.server/testing) layer may not import the higher pages"),
    ]);
  }, 60_000);
});

describe("the store's typed commands (issue 46 item 1: the rule 4 of boundaries.mjs)", () => {
  const eslint = new ESLint({ cwd: ROOT });
  const transportErrors = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result!.messages.filter((message) => message.message.includes("never a transport")).map((message) => message.ruleId);
  };

  it("fails a store file, its tests too, that imports the web forms' parsing or names FormData, URLSearchParams or Request", async () => {
    expect(await transportErrors("app/.server/store/checkout/probe.ts", 'export { parseForm } from "~/lib/forms";\n')).toEqual([
      "no-restricted-imports",
    ]);
    expect(
      await transportErrors(
        "app/.server/store/checkout/probe.ts",
        'import { readFields } from "../../../lib/forms";\nexport const f = readFields;\n',
      ),
    ).toEqual(["no-restricted-imports"]);
    const transports = "export const f = (form: FormData, query: URLSearchParams, request: Request) => [form, query, request];\n";
    expect(await transportErrors("app/.server/store/orders/probe.ts", transports)).toHaveLength(3);
    expect(await transportErrors("app/.server/store/orders/probe.test.ts", "export const form = new FormData();\n")).toHaveLength(1);
    // The doors read their transport.
    expect(await transportErrors("app/routes/probe.ts", transports)).toEqual([]);
    expect(await transportErrors("app/.server/http/probe.ts", 'export { parseForm } from "~/lib/forms";\n')).toEqual([]);
  }, 60_000);
});

describe("the import graph of app/", () => {
  const graph = importGraph();

  it("has no import circle between files", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("has no import circle between folders (store domains, .server folders, route areas)", () => {
    const folders = new Map<string, string[]>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      const edges = folders.get(from) ?? [];
      for (const target of targets) if (folderOf(target) !== from && !edges.includes(folderOf(target))) edges.push(folderOf(target));
      folders.set(from, edges);
    }
    expect(circles(folders)).toEqual([]);
  });

  it("imports only down the layers, through the domains' indexes, and keeps the back office out of buyer code", () => {
    const crossings: string[] = [];
    for (const [file, targets] of graph)
      for (const target of targets) {
        const why = boundaryViolation(file, target);
        if (why) crossings.push(`${file}: ${why}`);
      }
    expect(crossings).toEqual([]);
    // Every production module has a layer, so none escapes the check.
    expect([...graph.keys()].filter((file) => layerOf(file) < 0)).toEqual([]);
    expect(LAYERS.length).toBeGreaterThan(5);
  });
});

describe("module size", () => {
  it(`flags every production module of app/ over ${MAX_LINES} lines`, () => {
    const long = sourceFiles("app").filter((file) => fs.readFileSync(path.join(ROOT, file), "utf8").split("\n").length > MAX_LINES);
    expect(long).toEqual([]);
  });
});
