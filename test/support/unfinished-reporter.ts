import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Names the test files whose worker died under them. When a fork exits mid-file (a native crash in
 * an engine, a signal), vitest reports only "Worker exited unexpectedly", without the file, and the
 * file's tests are neither passed nor failed. This reporter prints, at the end of the run, each file
 * that started and never ended, with its project and the tests vitest had heard start and not end,
 * so a CI log that shows only its tail still says where to look.
 */
export default class UnfinishedReporter implements Reporter {
  private readonly modules = new Map<TestModule, Set<TestCase>>();

  onTestModuleStart(testModule: TestModule): void {
    this.modules.set(testModule, new Set());
  }

  onTestCaseReady(testCase: TestCase): void {
    this.modules.get(testCase.module)?.add(testCase);
  }

  onTestCaseResult(testCase: TestCase): void {
    this.modules.get(testCase.module)?.delete(testCase);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.modules.delete(testModule);
  }

  onTestRunEnd(): void {
    for (const [testModule, running] of this.modules) {
      const file = relative(process.cwd(), testModule.moduleId);
      // The worker sends its test events in batches: the one that died may not have sent its last.
      const tests = [...running].map((testCase) => testCase.fullName).join('; ') || 'not known (no test start had reached vitest)';
      process.stderr.write(`unfinished: ${file} (project ${testModule.project.name}) never ended; running: ${tests}\n`);
    }
    this.modules.clear();
  }
}
