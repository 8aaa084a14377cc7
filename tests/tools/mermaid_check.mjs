// mermaid_check.mjs FILE.md...: every ```mermaid block of each file must
// parse with Mermaid's own parser (mermaid.parse, the one GitHub and GitLab
// render with).  Prints one line per block; exits 1 when a block does not
// parse or a file has no block at all (a check that saw nothing proves
// nothing), 2 on a usage or read error.  Run through mermaid_check.sh,
// which installs the pinned mermaid package next to this file.
import { readFileSync } from 'node:fs';
import mermaid from 'mermaid';

// The ```mermaid blocks of a Markdown text: [{line, text}], line from 1.
function blocks(md) {
	const out = [];
	const lines = md.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (lines[i].trim() !== '```mermaid')
			continue;
		const start = i + 1;
		const body = [];
		for (i++; i < lines.length && lines[i].trim() !== '```'; i++)
			body.push(lines[i]);
		if (i >= lines.length)
			throw new Error(`line ${start}: the mermaid block is not closed`);
		out.push({ line: start, text: body.join('\n') + '\n' });
	}
	return out;
}

const files = process.argv.slice(2);
if (!files.length) {
	console.error('usage: mermaid_check.mjs FILE.md...');
	process.exit(2);
}
let bad = 0;
for (const f of files) {
	let bs;
	try {
		bs = blocks(readFileSync(f, 'utf8'));
	} catch (e) {
		console.error(`mermaid_check: ${f}: ${e.message}`);
		process.exit(2);
	}
	if (!bs.length) {
		console.log(`${f}: no mermaid block`);
		bad++;
	}
	for (const b of bs) {
		try {
			const r = await mermaid.parse(b.text);
			console.log(`${f}:${b.line}: ${r.diagramType} parses`);
		} catch (e) {
			console.log(`${f}:${b.line}: does not parse: ${String(e.message).split('\n').join(' | ')}`);
			bad++;
		}
	}
}
process.exit(bad ? 1 : 0);
