import type { Exchange } from '../../core/create-fetch.ts';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  level: LogLevel;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** A leveled logger writing lines to `write` (default: stdout for info/debug, stderr for warnings and errors). */
/** How serious a log line is: every level but `silent`. */
export type Severity = Exclude<LogLevel, 'silent'>;

export function createLogger(level: LogLevel, write?: (line: string, severity: Severity) => void): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const out = write ?? ((line, severity) => (severity === 'error' || severity === 'warn' ? process.stderr : process.stdout).write(`${line}\n`));
  const at = (severity: Exclude<LogLevel, 'silent'>) => (message: string) => {
    if (LOG_LEVELS.indexOf(severity) <= rank) out(message, severity);
  };
  return { level, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/**
 * One line per request: method, path, status and milliseconds (info), then a refusal's problem code
 * and fee-payer rule (`422 0.5ms FEE_PAYER_MISUSE rule F1`); the route's operationId too at debug.
 */
export function requestLogLine(exchange: Exchange, options: { withOperationId?: boolean } = {}): string {
  const url = new URL(exchange.request.url);
  const operationId = options.withOperationId ? ` ${exchange.operationId ?? '-'}` : '';
  const problem = exchange.problem ? ` ${exchange.problem.code}${exchange.problem.rule ? ` rule ${exchange.problem.rule}` : ''}` : '';
  return `${exchange.request.method} ${url.pathname} ${exchange.response.status} ${exchange.durationMs.toFixed(1)}ms${problem}${operationId}`;
}
