// The words of @faker-js/faker's person fields (first_name, last_name, ...) over every
// locale, lower case, NFC, at least two letters: what names.mjs and first.mjs write.
import { allLocales } from '@faker-js/faker';

export function fakerWords(fields) {
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
    if (loc.person) fields.forEach((f) => add(loc.person[f]));
  }
  return [...words].sort();
}
