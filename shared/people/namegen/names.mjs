// Writes the name lexicon shared/people reads (namelex.txt): every word of the given
// names and family names of every locale of the npm package @faker-js/faker (MIT),
// pinned in package.json here, lower case, one a line, sorted. Run by go generate in
// shared/people (it needs node and npm).
import { allLocales } from '@faker-js/faker';

const words = new Set();
const add = (v) => {
  if (!v) return;
  if (Array.isArray(v)) return v.forEach(add);
  if (typeof v === 'object') return Object.values(v).forEach(add);
  if (typeof v !== 'string') return;
  for (const w of v.toLocaleLowerCase().split(/[\s-]+/)) {
    if ([...w].length >= 2 && /^\p{L}[\p{L}'’.]*$/u.test(w)) words.add(w.normalize('NFC'));
  }
};
for (const loc of Object.values(allLocales)) {
  if (loc.person) {
    add(loc.person.first_name);
    add(loc.person.last_name);
  }
}
process.stdout.write([...words].sort().join('\n') + '\n');
