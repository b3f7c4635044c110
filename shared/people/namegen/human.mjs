// Writes the wider name model shared/people reads (humanlex.txt): every name of the
// npm package humannames (MIT; about 200,000 given and family names, English and
// common names of other origins, written without diacritics), pinned in package.json
// here, that is not already a word of namelex.txt or givenlex.txt, lower case, one a
// line, sorted by code point (the reader searches it). Run by go generate in
// shared/people after given.mjs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const known = new Set();
for (const f of ['../namelex.txt', '../givenlex.txt']) {
  for (const w of readFileSync(new URL(f, import.meta.url), "utf8").split("\n")) known.add(w);
}
const words = new Set();
for (const name of Object.keys(require('humannames'))) {
  for (const w of name.toLowerCase().split(/[\s-]+/)) {
    if (w.length >= 2 && /^[a-z][a-z']*$/.test(w) && !known.has(w)) words.add(w);
  }
}
process.stdout.write([...words].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join('\n') + '\n');
