import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order `npm run test:all` starts files in. vitest's own sorts projects by name and runs their
 * files through one queue of two workers, so the package project (its files are npm installs of
 * one to two and a half minutes each: git-install 149 s, package 156 s) came last and its longest
 * files ran alone at the end, each worker waiting on one install: .ci/run took 976 s. Projects are
 * taken longest files first instead (package, e2e, bankrun, fast), the fast project's short files
 * filling the end; within a project vitest's order stands (failed, longer, larger first).
 */
const PROJECT_ORDER = ['package', 'e2e', 'bankrun', 'fast'];

export default class ProjectsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = PROJECT_ORDER.indexOf(spec.project.name);
      return at < 0 ? PROJECT_ORDER.length : at;
    };
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
