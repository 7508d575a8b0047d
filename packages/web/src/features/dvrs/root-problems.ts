import { type Dvr, dvrRootProblem } from '@sluice/api';

/** Each DVR's root problem (spec 002 §5) by name; DVRs with a good root are left out. */
export function rootProblems(
  dvrs: Record<string, Dvr>,
  names: readonly string[],
  itemRoots: ReadonlySet<string>,
): Map<string, string> {
  const problems = new Map<string, string>();
  for (const name of names) {
    const others = names.filter((other) => other !== name).map((other) => dvrs[other]?.root ?? '');
    const problem = dvrRootProblem(dvrs[name]?.root ?? '', others, itemRoots);
    if (problem) problems.set(name, problem);
  }
  return problems;
}
