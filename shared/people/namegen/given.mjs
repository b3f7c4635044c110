// Writes the given-name model shared/people reads (givenlex.txt): every given name of
// the npm package gender-detection-from-name (MIT; English, German, French, Spanish,
// Italian and Turkish lists), pinned in package.json here, that is not already a word
// of namelex.txt, lower case, one a line, sorted. A word here counts only as the first
// word of a name (a given name), so common words among them ("Spring Campaign") need
// more. Run by go generate in shared/people after names.mjs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const known = new Set(readFileSync(new URL('../namelex.txt', import.meta.url), 'utf8').split('\n'));
const words = new Set();
for (const lang of ['en', 'de', 'fr', 'es', 'it', 'tr']) {
  const names = require(`gender-detection-from-name/names/${lang}.js`);
  for (const name of names.keys()) {
    for (const w of name.toLocaleLowerCase().split(/[\s-]+/)) {
      const n = w.normalize('NFC');
      if ([...n].length >= 2 && /^\p{L}[\p{L}'’.]*$/u.test(n) && !known.has(n)) words.add(n);
    }
  }
}
process.stdout.write([...words].sort().join('\n') + '\n');
