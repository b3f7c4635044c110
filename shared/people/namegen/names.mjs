// Writes the name lexicon shared/people reads (namelex.txt): every word of the given
// names and family names of every locale of the npm package @faker-js/faker (MIT),
// pinned in package.json here, lower case, one a line, sorted. Run by go generate in
// shared/people (it needs node and npm).
import { fakerWords } from './faker.mjs';

process.stdout.write(fakerWords(['first_name', 'last_name']).join('\n') + '\n');
