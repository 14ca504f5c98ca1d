/**
 * The conformance kit: a contract suite that runs against any base URL of the relay service and
 * reports, clause by clause, where the target differs from the spec.
 *
 *   const report = await runConformance({ baseUrl, apiKey, fetch: emulator.fetch });
 *   console.log(formatTable(report));
 */
export { runConformance, DEFAULT_TIMEOUT_MS } from './run-conformance.ts';
export { runConformanceCommand, CONFORMANCE_USAGE, EXIT_OK, EXIT_MUST_FAILED, EXIT_USAGE, EXIT_INCOMPLETE, type CommandIo, type TextSink } from './command.ts';
export { formatTable, type TableOptions } from './format-table.ts';
export { formatJUnit } from './format-junit.ts';
export { formatJson } from './format-json.ts';
export { summarize } from './summarize.ts';
export { TARGET_CHECKS } from './checks/index.ts';
export {
  createContractValidator,
  defaultContractValidator,
  CONTRACT_PATH,
  type ContractValidator,
  type ContractValidatorOptions,
  type ResponseToValidate,
  type ResponseValidation,
} from './contract-validator.ts';
export type {
  CheckLevel,
  CheckResult,
  CheckStatus,
  ConformanceOptions,
  ConformanceReport,
  ConformanceSummary,
  ConformanceVerdict,
  LegacyTarget,
} from './types.ts';
