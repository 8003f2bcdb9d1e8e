// Operator CLI: `npm run ops -- <command> [arguments]`. Every command goes through the same store
// functions as the app, against the same database (DATABASE_URL, or PGlite in DATA_DIR, default ./data).
// Run it while the server is stopped when using PGlite: an embedded database has one process at a time.
import { closeDb } from "~/.server/db/client";
import { listUsers, markVerified } from "~/.server/store/accounts";

type Command = { usage: string; summary: string; run: (args: string[]) => Promise<number> };

const commands: Record<string, Command> = {
  "users:list": {
    usage: "users:list",
    summary: "list the accounts (id, email, name, NIP, company, verified)",
    async run() {
      const users = await listUsers();
      printTable(
        ["id", "email", "name", "NIP", "company", "verified"],
        users.map((u) => [String(u.id), u.email, u.fullname, u.nip, u.companyName, u.verifiedAt ? u.verifiedAt.toISOString().slice(0, 10) : "no"]),
      );
      console.log(`${users.length} account(s)`);
      return 0;
    },
  },
  "users:verify": {
    usage: "users:verify <email>",
    summary: "mark an account verified without the e-mail link",
    async run([email]) {
      if (!email) {
        console.error("usage: npm run ops -- users:verify <email>");
        return 1;
      }
      if (!(await markVerified(email))) {
        console.error(`no account with e-mail ${email}`);
        return 1;
      }
      console.log(`${email} is verified`);
      return 0;
    },
  },
};

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(row));
}

function usage() {
  console.log("usage: npm run ops -- <command> [arguments]\n\ncommands:");
  for (const c of Object.values(commands)) console.log(`  ${c.usage.padEnd(24)}${c.summary}`);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    if (name && name !== "help" && name !== "--help") console.error(`unknown command: ${name}\n`);
    usage();
    return name === "help" || name === "--help" ? 0 : 1;
  }
  try {
    return await command.run(args);
  } finally {
    await closeDb();
  }
}

process.exitCode = await main(process.argv.slice(2));
