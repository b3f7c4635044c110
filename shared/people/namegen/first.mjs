// Writes the first-name model shared/people reads (firstlex.txt): every word of the
// given names (first_name) of every locale of the npm package @faker-js/faker (MIT),
// pinned in package.json here, lower case, one a line, sorted. It tells a given name
// from a family name where namelex.txt, which holds both, cannot ("Pérez de Castro,
// María José" is one name written family name first; "Marie Zimmer, Viviane Schramm"
// two names). Run by go generate in shared/people.
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
  if (loc.person) add(loc.person.first_name);
}
process.stdout.write([...words].sort().join('\n') + '\n');
