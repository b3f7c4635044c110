// Starts local-aws-sqs (the SQS stand-in of DESIGN.md section 5) on a loopback port.
//
//   node infra/standins/sqs.mjs --port 9324 [--host 127.0.0.1] [--tools .tools]
//
// The package is resolved from the tools prefix (`make tools` installs it into .tools),
// not from a node_modules next to this script, so the repository keeps no npm project.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9324' },
    host: { type: 'string', default: '127.0.0.1' },
    tools: { type: 'string', default: process.env.FIRMO_TOOLS || resolve(here, '../../.tools') },
  },
});
const require = createRequire(join(resolve(values.tools), 'package.json'));
const { createSqsServer } = require('local-aws-sqs');

const server = await createSqsServer({
  port: Number(values.port),
  hostname: values.host,
  // Tests create and delete queues freely; AWS's 60-second name quarantine only slows them.
  emulateQueueCreationLifecycle: false,
});
console.log(`local-aws-sqs listening on http://${values.host}:${values.port}`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
