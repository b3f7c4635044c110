// A small Step Functions service for tests (DESIGN.md section 5): it speaks enough of
// the Step Functions JSON API (application/x-amz-json-1.0, X-Amz-Target
// AWSStepFunctions.*) for aws-sdk-go-v2's sfn client, and runs the real ASL with
// aws-local-stepfunctions. Task states invoke Lambda functions through a Lambda Invoke
// endpoint (the Go test kit's runtime-API emulator), so executions drive the real
// function binaries. Needs Node 22 (aws-local-stepfunctions 3).
//
//   node infra/standins/sfn-shim.mjs --port 8083 --lambda-endpoint http://127.0.0.1:9001 \
//     [--host 127.0.0.1] [--tools .tools] [--wait-ms N] [--retry-ms N]
//
// Operations: CreateStateMachine, DescribeStateMachine, UpdateStateMachine,
// DeleteStateMachine, ListStateMachines, StartExecution, DescribeExecution,
// StopExecution, ListExecutions, GetExecutionHistory. State lives in memory.
//
// Task resources: arn:aws:lambda:REGION:ACCOUNT:function:NAME (payload = state input,
// result = function output), arn:aws:states:::lambda:invoke (Parameters
// FunctionName and Payload; result {ExecutedVersion, Payload, StatusCode}) and
// arn:aws:states:::states:startExecution (Parameters StateMachineArn, Name and Input,
// an object or a string; result {ExecutionArn, StartDate}; a name taken by another
// input or an ended execution fails with StepFunctions.ExecutionAlreadyExistsException). Errors
// carry the names Step Functions gives them: a function error is its errorType, with
// the error document as Cause; Lambda service failures are Lambda.ServiceException,
// Lambda.TooManyRequestsException, Lambda.ResourceNotFoundException, and so on.
// --wait-ms replaces the duration of every Wait state and --retry-ms every Retry
// interval (tests that cannot wait minutes); without them the ASL's own times apply.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '8083' },
    host: { type: 'string', default: '127.0.0.1' },
    tools: { type: 'string', default: process.env.FIRMO_TOOLS || resolve(here, '../../.tools') },
    'lambda-endpoint': { type: 'string', default: process.env.FIRMO_LAMBDA_ENDPOINT || '' },
    region: { type: 'string', default: 'us-east-1' },
    account: { type: 'string', default: '123456789012' },
    'wait-ms': { type: 'string' },
    'retry-ms': { type: 'string' },
  },
});
const require = createRequire(join(resolve(opts.tools), 'package.json'));
const { StateMachine } = require('aws-local-stepfunctions');

const REGION = opts.region;
const ACCOUNT = opts.account;
const LAMBDA = opts['lambda-endpoint'].replace(/\/$/, '');
const WAIT_MS = opts['wait-ms'] === undefined ? undefined : Number(opts['wait-ms']);
const RETRY_MS = opts['retry-ms'] === undefined ? undefined : Number(opts['retry-ms']);
const PAYLOAD_LIMIT = 256 * 1024; // state input and output quota of Step Functions
const HISTORY_LIMIT = 25000; // events per execution before Step Functions fails it

const machines = new Map(); // stateMachineArn -> machine
const executions = new Map(); // executionArn -> execution

// ---------------------------------------------------------------- errors

class ApiError extends Error {
  constructor(code, message, status = 400) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// A Task failure as Step Functions names it; Cause is its message.
function taskError(name, cause, { catchable = true } = {}) {
  const err = new Error(cause);
  err.name = name;
  // aws-local-stepfunctions reads these on any error it catches.
  Object.defineProperty(err, 'isRetryable', { value: catchable });
  Object.defineProperty(err, 'isCatchable', { value: catchable });
  return err;
}

// ---------------------------------------------------------------- definitions

const LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:[^:]+:[^:]+:function:[^:]+(:[^:]+)?$/;
const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';
const START_EXECUTION = 'arn:aws:states:::states:startExecution';

// walkStates visits every state, those in Parallel branches and Map processors too.
function walkStates(def, visit) {
  for (const [name, state] of Object.entries(def.States || {})) {
    visit(name, state);
    if (state.Type === 'Parallel') for (const b of state.Branches || []) walkStates(b, visit);
    if (state.Type === 'Map') walkStates(state.ItemProcessor || state.Iterator || {}, visit);
  }
}

function compile(name, definitionText) {
  let def;
  try {
    def = JSON.parse(definitionText);
  } catch (e) {
    throw new ApiError('InvalidDefinition', `Invalid State Machine Definition: '${e.message}'`);
  }
  let machine;
  try {
    machine = new StateMachine(def, { validationOptions: { checkArn: true, checkPaths: true } });
  } catch (e) {
    throw new ApiError('InvalidDefinition', `Invalid State Machine Definition: '${e.message}'`);
  }
  // Overrides are keyed by state name, so a name must mean one resource everywhere.
  const tasks = {};
  const waits = {};
  const retries = {};
  walkStates(def, (stateName, state) => {
    if (state.Type === 'Task') {
      const r = state.Resource;
      if (!LAMBDA_ARN.test(r) && r !== LAMBDA_INVOKE && r !== START_EXECUTION) {
        throw new ApiError('InvalidDefinition', `state ${stateName}: resource ${r} is not supported by this stand-in (Lambda and states:startExecution only)`);
      }
      if (tasks[stateName] && tasks[stateName].resource !== r) {
        throw new ApiError('InvalidDefinition', `two Task states named ${stateName} with different resources`);
      }
      tasks[stateName] = { resource: r, handler: (input) => invokeTask(r, input) };
    }
    if (state.Type === 'Wait' && WAIT_MS !== undefined) waits[stateName] = WAIT_MS;
    if (state.Retry && RETRY_MS !== undefined) retries[stateName] = RETRY_MS;
  });
  const handlers = Object.fromEntries(Object.entries(tasks).map(([k, v]) => [k, v.handler]));
  return { name, def, definition: definitionText, machine, tasks, overrides: { taskResourceLocalHandlers: handlers, waitTimeOverrides: waits, retryIntervalOverrides: retries } };
}

// ---------------------------------------------------------------- Lambda

async function invokeTask(resource, input) {
  if (resource === START_EXECUTION) return startFromTask(input || {});
  if (resource === LAMBDA_INVOKE) {
    if (!input || typeof input.FunctionName !== 'string') {
      throw taskError('States.Runtime', 'lambda:invoke needs Parameters.FunctionName', { catchable: false });
    }
    const payload = input.Payload === undefined ? {} : input.Payload;
    const out = await invokeLambda(input.FunctionName, payload);
    return { ExecutedVersion: '$LATEST', Payload: out, StatusCode: 200 };
  }
  return invokeLambda(resource, input);
}

async function invokeLambda(fn, payload) {
  if (!LAMBDA) throw taskError('Lambda.SdkClientException', 'the shim was started without --lambda-endpoint');
  let res;
  try {
    res = await fetch(`${LAMBDA}/2015-03-31/functions/${encodeURIComponent(fn)}/invocations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
  } catch (e) {
    throw taskError('Lambda.SdkClientException', `Unable to execute HTTP request: ${e.message}`);
  }
  const text = await res.text();
  if (res.status === 429) throw taskError('Lambda.TooManyRequestsException', text);
  if (res.status >= 500) throw taskError('Lambda.ServiceException', text);
  if (res.status !== 200) {
    const code = res.headers.get('x-amzn-errortype') || 'AWSLambdaException';
    throw taskError(`Lambda.${code}`, text);
  }
  if (res.headers.get('x-amz-function-error')) {
    let doc = {};
    try {
      doc = JSON.parse(text);
    } catch {
      /* keep the raw text as the cause */
    }
    throw taskError(doc.errorType || 'Lambda.Unknown', text);
  }
  if (text.length > PAYLOAD_LIMIT) {
    throw taskError('States.DataLimitExceeded', `The state/task returned a result with a size exceeding the maximum number of bytes service limit (${text.length} bytes)`, { catchable: false });
  }
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw taskError('States.Runtime', `the function returned output that is not JSON: ${text.slice(0, 200)}`, { catchable: false });
  }
}

// startFromTask is the states:startExecution service integration: the same start as
// the StartExecution operation, its API errors named as Step Functions names them for
// a Task state (StepFunctions.<Code>Exception).
function startFromTask(p) {
  const input = p.Input === undefined ? '{}' : typeof p.Input === 'string' ? p.Input : JSON.stringify(p.Input);
  try {
    const out = ops.StartExecution({ stateMachineArn: p.StateMachineArn, name: p.Name, input });
    return { ExecutionArn: out.executionArn, StartDate: out.startDate };
  } catch (e) {
    if (e instanceof ApiError) throw taskError(`StepFunctions.${e.code}Exception`, e.message);
    throw e;
  }
}

// ---------------------------------------------------------------- executions

const epoch = (ms) => ms / 1000;
const machineArn = (name) => `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:${name}`;
const executionArn = (sm, name) => `arn:aws:states:${REGION}:${ACCOUNT}:execution:${sm}:${name}`;
const NAME = /^[A-Za-z0-9_-]{1,80}$/;

function start(machine, name, inputText) {
  let input;
  try {
    input = JSON.parse(inputText);
  } catch (e) {
    throw new ApiError('InvalidExecutionInput', `Invalid execution input: ${e.message}`);
  }
  if (Buffer.byteLength(inputText) > PAYLOAD_LIMIT) {
    throw new ApiError('InvalidExecutionInput', 'execution input exceeds 262144 bytes');
  }
  const arn = executionArn(machine.name, name);
  const exec = {
    executionArn: arn,
    stateMachineArn: machine.arn,
    name,
    status: 'RUNNING',
    startDate: Date.now(),
    input: inputText,
    history: [],
    weight: 0,
  };
  executions.set(arn, exec);
  const run = machine.compiled.machine.run(input, {
    overrides: machine.compiled.overrides,
    context: {
      Execution: { Id: arn, Name: name, RoleArn: machine.roleArn },
      StateMachine: { Id: machine.arn, Name: machine.name },
    },
  });
  exec.abort = run.abort;
  record(exec, run.eventLogs, machine.compiled);
  run.result.then(
    (out) => finish(exec, 'SUCCEEDED', { output: JSON.stringify(out === undefined ? null : out) }),
    (err) => finish(exec, ...classify(err)),
  );
  console.log(`start ${arn}`);
  return exec;
}

function classify(err) {
  switch (err && err.name) {
    case 'ExecutionAbortedError':
      return ['ABORTED', {}];
    case 'ExecutionTimeoutError':
      return ['TIMED_OUT', { error: 'States.Timeout', cause: 'The execution timed out' }];
    case 'ExecutionError': {
      const cause = err.cause || {};
      return ['FAILED', { error: cause.name || 'States.Runtime', cause: cause.message || '' }];
    }
    default:
      return ['FAILED', { error: 'States.Runtime', cause: String((err && err.message) || err) }];
  }
}

function finish(exec, status, fields) {
  if (exec.status !== 'RUNNING') return; // already stopped
  Object.assign(exec, fields, { status, stopDate: Date.now() });
  const detail = status === 'SUCCEEDED' ? '' : ` ${exec.error || ''}: ${(exec.cause || '').slice(0, 300)}`;
  console.log(`${status.toLowerCase()} ${exec.executionArn}${detail}`);
}

// record turns the library's event log into Step Functions history events and fails
// the execution, as Step Functions does, past 25,000 of them.
async function record(exec, events, compiled) {
  const push = (type, details) => {
    const id = exec.history.length + 1;
    exec.history.push({ timestamp: epoch(Date.now()), type, id, previousEventId: id - 1, ...details });
  };
  for await (const ev of events) {
    const s = ev.state || {};
    switch (ev.type) {
      case 'ExecutionStarted':
        push('ExecutionStarted', { executionStartedEventDetails: { input: exec.input, roleArn: '' } });
        break;
      case 'StateEntered':
        push(`${s.type}StateEntered`, { stateEnteredEventDetails: { name: s.name, input: JSON.stringify(s.input) } });
        break;
      case 'StateExited':
        push(`${s.type}StateExited`, { stateExitedEventDetails: { name: s.name, output: JSON.stringify(s.output) } });
        break;
      case 'StateFailed':
        if (s.type === 'Task') {
          const resource = (compiled.tasks[s.name] || {}).resource || '';
          push('TaskFailed', { taskFailedEventDetails: { resourceType: 'lambda', resource, error: ev.Error, cause: String(ev.Cause ?? '') } });
        }
        break;
      case 'MapIterationStarted':
      case 'MapIterationSucceeded':
      case 'MapIterationFailed': {
        const key = ev.type[0].toLowerCase() + ev.type.slice(1) + 'EventDetails';
        push(ev.type, { [key]: { name: ev.parentState.name, index: ev.index } });
        break;
      }
      default:
        break;
    }
    // A Lambda Task costs Step Functions five events (entered, scheduled, started,
    // succeeded or failed, exited); count the way it would.
    exec.weight += ev.type === 'StateEntered' && s.type === 'Task' ? 4 : 1;
    if (exec.weight > HISTORY_LIMIT && exec.status === 'RUNNING') {
      finish(exec, 'FAILED', { error: 'States.Runtime', cause: `the execution exceeded the ${HISTORY_LIMIT}-event history quota` });
      exec.abort();
    }
  }
  const end = { SUCCEEDED: 'ExecutionSucceeded', FAILED: 'ExecutionFailed', ABORTED: 'ExecutionAborted', TIMED_OUT: 'ExecutionTimedOut' };
  await new Promise((r) => setImmediate(r)); // let the result settle the status first
  const type = end[exec.status];
  if (!type) return;
  const key = type[0].toLowerCase() + type.slice(1) + 'EventDetails';
  push(type, { [key]: exec.status === 'SUCCEEDED' ? { output: exec.output } : { error: exec.error || '', cause: exec.cause || '' } });
}

function executionSummary(e) {
  const out = { executionArn: e.executionArn, stateMachineArn: e.stateMachineArn, name: e.name, status: e.status, startDate: epoch(e.startDate) };
  if (e.stopDate) out.stopDate = epoch(e.stopDate);
  return out;
}

// ---------------------------------------------------------------- operations

function machineOf(arn) {
  const m = machines.get(arn);
  if (!m) throw new ApiError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
  return m;
}

function executionOf(arn) {
  const e = executions.get(arn);
  if (!e) throw new ApiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
  return e;
}

function page(items, maxResults, nextToken) {
  const from = nextToken ? Number(Buffer.from(nextToken, 'base64').toString()) : 0;
  if (!Number.isInteger(from) || from < 0) throw new ApiError('InvalidToken', 'Invalid Token');
  const size = maxResults > 0 ? Math.min(maxResults, 1000) : 100;
  const slice = items.slice(from, from + size);
  const next = from + size < items.length ? Buffer.from(String(from + size)).toString('base64') : undefined;
  return { slice, next };
}

const ops = {
  CreateStateMachine(req) {
    if (!NAME.test(req.name || '')) throw new ApiError('InvalidName', `Invalid Name: '${req.name}'`);
    const arn = machineArn(req.name);
    const existing = machines.get(arn);
    if (existing) {
      if (existing.definition === req.definition && existing.roleArn === (req.roleArn || '')) {
        return { stateMachineArn: arn, creationDate: epoch(existing.creationDate) };
      }
      throw new ApiError('StateMachineAlreadyExists', `State Machine Already Exists: '${arn}'`);
    }
    const compiled = compile(req.name, req.definition || '');
    const m = { arn, name: req.name, definition: req.definition, roleArn: req.roleArn || '', type: req.type || 'STANDARD', creationDate: Date.now(), compiled };
    machines.set(arn, m);
    return { stateMachineArn: arn, creationDate: epoch(m.creationDate) };
  },
  DescribeStateMachine(req) {
    const m = machineOf(req.stateMachineArn);
    return { stateMachineArn: m.arn, name: m.name, status: 'ACTIVE', definition: m.definition, roleArn: m.roleArn, type: m.type, creationDate: epoch(m.creationDate) };
  },
  UpdateStateMachine(req) {
    const m = machineOf(req.stateMachineArn);
    if (req.definition !== undefined) {
      m.compiled = compile(m.name, req.definition);
      m.definition = req.definition;
    }
    if (req.roleArn !== undefined) m.roleArn = req.roleArn;
    return { updateDate: epoch(Date.now()) };
  },
  DeleteStateMachine(req) {
    machines.delete(req.stateMachineArn);
    return {};
  },
  ListStateMachines(req) {
    const all = [...machines.values()].map((m) => ({ stateMachineArn: m.arn, name: m.name, type: m.type, creationDate: epoch(m.creationDate) }));
    const { slice, next } = page(all, req.maxResults, req.nextToken);
    return { stateMachines: slice, nextToken: next };
  },
  StartExecution(req) {
    const m = machineOf(req.stateMachineArn);
    const name = req.name || randomUUID();
    if (!NAME.test(name)) throw new ApiError('InvalidName', `Invalid Name: '${name}'`);
    const input = req.input === undefined ? '{}' : req.input;
    const existing = executions.get(executionArn(m.name, name));
    if (existing) {
      // Idempotent for the same name and input while it runs, as Step Functions is.
      if (existing.status === 'RUNNING' && existing.input === input) {
        return { executionArn: existing.executionArn, startDate: epoch(existing.startDate) };
      }
      throw new ApiError('ExecutionAlreadyExists', `Execution Already Exists: '${existing.executionArn}'`);
    }
    const e = start(m, name, input);
    return { executionArn: e.executionArn, startDate: epoch(e.startDate) };
  },
  DescribeExecution(req) {
    const e = executionOf(req.executionArn);
    const out = { ...executionSummary(e), input: e.input, inputDetails: { included: true } };
    if (e.output !== undefined) Object.assign(out, { output: e.output, outputDetails: { included: true } });
    if (e.error !== undefined) out.error = e.error;
    if (e.cause !== undefined) out.cause = e.cause;
    return out;
  },
  StopExecution(req) {
    const e = executionOf(req.executionArn);
    if (e.status === 'RUNNING') {
      finish(e, 'ABORTED', { error: req.error, cause: req.cause });
      e.abort();
    }
    return { stopDate: epoch(e.stopDate) };
  },
  ListExecutions(req) {
    machineOf(req.stateMachineArn);
    const all = [...executions.values()]
      .filter((e) => e.stateMachineArn === req.stateMachineArn && (!req.statusFilter || e.status === req.statusFilter))
      .sort((a, b) => b.startDate - a.startDate)
      .map(executionSummary);
    const { slice, next } = page(all, req.maxResults, req.nextToken);
    return { executions: slice, nextToken: next };
  },
  GetExecutionHistory(req) {
    const e = executionOf(req.executionArn);
    const events = req.reverseOrder ? [...e.history].reverse() : e.history;
    const { slice, next } = page(events, req.maxResults, req.nextToken);
    return { events: slice, nextToken: next };
  },
};

// ---------------------------------------------------------------- HTTP

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const reply = (status, body, errorType) => {
      const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() };
      if (errorType) headers['x-amzn-errortype'] = errorType;
      res.writeHead(status, headers);
      res.end(JSON.stringify(body));
    };
    try {
      const target = String(req.headers['x-amz-target'] || '');
      const op = target.startsWith('AWSStepFunctions.') ? ops[target.slice('AWSStepFunctions.'.length)] : undefined;
      if (req.method !== 'POST' || !op) throw new ApiError('UnknownOperationException', `unsupported operation ${target || req.method + ' ' + req.url}`);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      reply(200, op(body));
    } catch (e) {
      if (e instanceof ApiError) return reply(e.status, { __type: e.code, message: e.message }, e.code);
      if (e instanceof SyntaxError) return reply(400, { __type: 'SerializationException', message: e.message }, 'SerializationException');
      console.error(e);
      reply(500, { __type: 'InternalFailure', message: String(e.message || e) }, 'InternalFailure');
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(opts.port), opts.host, () => {
  console.log(`sfn-shim listening on http://${opts.host}:${opts.port} (lambda ${LAMBDA || 'none'})`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
