// Writes the first-name model shared/people reads (firstlex.txt): every word of the
// given names (first_name) of every locale of the npm package @faker-js/faker (MIT),
// pinned in package.json here, lower case, one a line, sorted. It tells a given name
// from a family name where namelex.txt, which holds both, cannot ("Pérez de Castro,
// María José" is one name written family name first; "Marie Zimmer, Viviane Schramm"
// two names). Run by go generate in shared/people.
import { fakerWords } from './faker.mjs';

process.stdout.write(fakerWords(['first_name']).join('\n') + '\n');
