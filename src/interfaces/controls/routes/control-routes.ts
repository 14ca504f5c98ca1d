import type { Route } from '../../../base/http/router.ts';
import { base64Problem } from '../../../base/crypto/base64.ts';
import { RelayError } from '../../../base/errors/relay-error.ts';
import { jsonResponse, jsonTextResponse } from '../../../base/http/json-response.ts';
import { exactJson } from '../../../domain/fixtures/account-dumps.ts';
import type { RouteContext } from '../../../base/http/router.ts';
import type { OperationId, QueryParameters, RequestBody } from '../../../domain/openapi/binding.ts';
import type { ControlsDeps } from '../controls-deps.ts';
import { MAX_ACCOUNT_DATA_BYTES, type AccountState } from '../../../domain/ledger/account-state.ts';
import type { Fault } from '../faults.ts';
import type { TestControlMethods } from '../control-types.ts';
import { readOctetBody } from '../../../base/http/read-octet-body.ts';
import type { ProgramInfo } from '../../../domain/ledger/loaded-programs.ts';
import { readJsonBody } from '../../../base/http/read-json-body.ts';

type Context = RouteContext<ControlsDeps>;

/** The /__emulator routes: each is one test control (the room puts them behind the admin guard). */
export function controlRoutes(controls: TestControlMethods): Route<ControlsDeps>[] {
  const route = (method: string, path: string, operationId: string, handle: (context: Context) => Promise<unknown>): Route<ControlsDeps> => ({
    method,
    path,
    api: 'emulator',
    operationId,
    async handle(context) {
      return jsonResponse(await handle(context));
    },
  });
  // Every control body is required (openapi/relay.yaml): none, or JSON null, is refused as not an object.
  const body = async <Id extends OperationId>(context: Context, operationId: Id): Promise<RequestBody<Id>> =>
    context.deps.binder.body(operationId, await context.body());
  const query = <Id extends OperationId>(context: Context, operationId: Id): QueryParameters<Id> =>
    context.deps.binder.query(operationId, context.url.searchParams);

  return [
    route('POST', '/__emulator/reset', 'emulatorReset', async () => {
      await controls.reset();
      return { ok: true };
    }),

    route('POST', '/__emulator/faucet', 'emulatorFaucet', async (context) => {
      const request = await body(context, 'emulatorFaucet');
      const result = await controls.faucet({
        address: request.address,
        ...(request.lamports === undefined ? {} : { lamports: request.lamports }),
        ...(request.mint === undefined ? {} : { mint: request.mint }),
        ...(request.amount === undefined ? {} : { amount: request.amount }),
      });
      return { ...result, lamports: result.lamports.toString(), tokenAmount: result.tokenAmount?.toString() ?? null };
    }),

    route('POST', '/__emulator/mints', 'emulatorCreateMint', async (context) => {
      const request = await body(context, 'emulatorCreateMint');
      return controls.createMint({ decimals: request.decimals, ...(request.symbol === undefined ? {} : { symbol: request.symbol }) });
    }),

    route('POST', '/__emulator/nonce', 'emulatorCreateNonceAccount', async (context) => {
      const request = await body(context, 'emulatorCreateNonceAccount');
      return controls.createNonceAccount({ authority: request.authority });
    }),

    {
      method: 'GET',
      path: '/__emulator/accounts',
      api: 'emulator',
      operationId: 'emulatorAccountDumps',
      async handle() {
        // Exact integers: lamports pass 2^53, which jsonResponse would round.
        return jsonTextResponse(exactJson({ accounts: await controls.accountDumps() }));
      },
    },

    route('GET', '/__emulator/accounts/{address}', 'emulatorGetAccount', async ({ params }) => {
      const account = await controls.getAccount(params.address!);
      if (!account) throw new RelayError('ACCOUNT_NOT_FOUND', `No account at ${params.address}.`);
      return accountJson(account);
    }),

    route('PUT', '/__emulator/accounts/{address}', 'emulatorSetAccount', async (context) => {
      // Accounts as large as Solana's: with a Content-Length, a body holding 10 MiB of data in base64 (Light's address tree is 2.2 MB).
      const declared = context.request.headers.get('content-length') !== null;
      const parsed = await readJsonBody(context.request, {
        maxBytes: declared ? ACCOUNT_BODY_MAX_BYTES : context.deps.config.maxBodyBytes,
        context: context.requestContext,
        vars: context.vars,
        shape: { containers: 16, values: 64 },
      });
      const request = context.deps.binder.body('emulatorSetAccount', parsed);
      const data = decodeBase64(request.data);
      if (data.length > MAX_ACCOUNT_DATA_BYTES) {
        throw new RelayError('PAYLOAD_TOO_LARGE', `The account's data holds ${data.length} bytes, more than an account holds (${MAX_ACCOUNT_DATA_BYTES}).`, {
          maxBytes: ACCOUNT_BODY_MAX_BYTES,
        });
      }
      const stored = await controls.setAccount(context.params.address!, {
        lamports: BigInt(request.lamports),
        owner: request.owner,
        data,
        executable: request.executable,
      });
      return stored ? accountJson(stored) : { lamports: 0, owner: '11111111111111111111111111111111', data: '', executable: false };
    }),

    route('GET', '/__emulator/programs', 'emulatorListPrograms', async () => {
      const { programs, accounts } = controls.programs();
      return { programs: programs.map(programJson), accounts };
    }),

    route('PUT', '/__emulator/programs/{programId}', 'emulatorDeployProgram', async (context) => {
      const { loader, upgradeAuthority } = query(context, 'emulatorDeployProgram');
      const elf = await readOctetBody(context.request, {
        bufferedMaxBytes: context.deps.config.maxBodyBytes,
        maxBytes: PROGRAM_MAX_BYTES,
        context: context.requestContext,
      });
      const deployed = await controls.deployProgram(context.params.programId!, elf, {
        ...(loader === undefined ? {} : { loader }),
        ...(upgradeAuthority === undefined ? {} : { upgradeAuthority: upgradeAuthority === 'none' ? null : upgradeAuthority }),
      });
      return programJson(deployed);
    }),

    route('GET', '/__emulator/clock', 'emulatorGetClock', async () => controls.clock()),

    route('POST', '/__emulator/clock', 'emulatorClock', async (context) => {
      const request = await body(context, 'emulatorClock');
      return controls.warp({
        ...(request.warpSlots === undefined ? {} : { slots: request.warpSlots }),
        ...(request.slot === undefined ? {} : { slot: request.slot }),
        ...(request.unixTimestamp === undefined ? {} : { unixTimestamp: request.unixTimestamp }),
      });
    }),

    route('POST', '/__emulator/blockhash/expire', 'emulatorExpireBlockhash', async () => {
      const { blockhash, lastValidBlockHeight } = await controls.expireBlockhash();
      return { Blockhash: blockhash, LastValidBlockHeight: lastValidBlockHeight };
    }),

    route('GET', '/__emulator/queue', 'emulatorQueue', async () => controls.queueState()),
    route('PUT', '/__emulator/queue', 'emulatorSetQueue', async (context) => {
      const request = await body(context, 'emulatorSetQueue');
      return controls.setQueueLatency(request.latencyMs);
    }),
    route('POST', '/__emulator/queue/pause', 'emulatorPauseQueue', async () => controls.pauseQueue()),
    route('POST', '/__emulator/queue/resume', 'emulatorResumeQueue', async () => controls.resumeQueue()),
    route('POST', '/__emulator/queue/flush', 'emulatorFlushQueue', async () => controls.flushQueue()),
    route('POST', '/__emulator/queue/step', 'emulatorStepQueue', async () => ({ processed: await controls.stepQueue() })),

    route('GET', '/__emulator/faults', 'emulatorListFaults', async () => controls.faults()),
    route('POST', '/__emulator/faults', 'emulatorAddFault', async (context) => controls.injectFault(toFault(await body(context, 'emulatorAddFault')))),
    route('DELETE', '/__emulator/faults', 'emulatorClearFaults', async () => {
      controls.clearFaults();
      return { ok: true };
    }),

    route('GET', '/__emulator/journal/requests', 'emulatorRequestJournal', async (context) => {
      return { requests: controls.requestJournal(query(context, 'emulatorRequestJournal')) };
    }),

    route('GET', '/__emulator/journal/transactions', 'emulatorTransactionJournal', async (context) => {
      return { transactions: controls.transactionJournal(query(context, 'emulatorTransactionJournal')) };
    }),
  ];
}

/** A body holding an account of 10 MiB: its data in base64 (4/3 of it) and the rest of its JSON. */
const ACCOUNT_BODY_MAX_BYTES = Math.ceil((MAX_ACCOUNT_DATA_BYTES * 4) / 3) + 64 * 1024;

/** Solana's largest account: no program is larger. */
const PROGRAM_MAX_BYTES = MAX_ACCOUNT_DATA_BYTES;

function programJson(program: ProgramInfo): ProgramInfo {
  return program;
}

function accountJson(account: AccountState): { lamports: bigint; owner: string; data: string; executable: boolean } {
  return { lamports: account.lamports, owner: account.owner, data: Buffer.from(account.data).toString('base64'), executable: account.executable };
}

function decodeBase64(text: string): Uint8Array {
  // Empty is no data (the contract allows it); anything else is standard base64.
  const problem = text === '' ? null : base64Problem(text);
  if (problem) {
    const message = `is not standard base64 (RFC 4648 §4, padded): ${problem}`;
    throw new RelayError('INVALID_BASE64', `data ${message}.`, { errors: [{ path: 'data', message }] });
  }
  return new Uint8Array(Buffer.from(text, 'base64'));
}

function toFault(request: RequestBody<'emulatorAddFault'>): Fault {
  const base = { operation: request.operation, count: request.count };
  switch (request.kind) {
    case 'problem':
      if (request.code === undefined) throw missing('code', 'problem');
      return { ...base, kind: 'problem', code: request.code };
    case 'ledger':
      return { ...base, kind: 'ledger', ...(request.ledgerError === undefined ? {} : { ledgerError: request.ledgerError }) };
    case 'delay':
      if (request.delayMs === undefined) throw missing('delayMs', 'delay');
      return { ...base, kind: 'delay', delayMs: request.delayMs };
  }
}

function missing(field: string, kind: string): RelayError {
  return new RelayError('VALIDATION_FAILED', `${field} is required for kind=${kind}.`, { errors: [{ path: field, message: `is required for kind=${kind}` }] });
}
