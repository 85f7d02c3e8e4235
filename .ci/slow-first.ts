import Fs from 'node:fs';
import Path from 'node:path';
import { fileURLToPath } from 'node:url';

import { BaseSequencer, type TestSpecification } from 'vitest/node';

// On a fresh clone (CI) vitest knows no file's duration and starts the largest files first, so a long
// file that is short in lines (one that waits on child servers, say) starts last, and the suite then
// waits on it alone. The seconds each file took in CI (durations.json beside this file, written from
// a run's test-results.json by `node .ci/durations.mjs`) put the longest first, in every project at
// once; files not listed keep vitest's order after them. A stale figure only costs some balance.
const here = Path.dirname(fileURLToPath(import.meta.url));
const root = Path.dirname(here);
const seconds: Record<string, number> = JSON.parse(Fs.readFileSync(Path.join(here, 'durations.json'), 'utf8'));

export class SlowFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
        const sorted = await super.sort(files);
        const known = (spec: TestSpecification) => seconds[Path.relative(root, spec.moduleId).split(Path.sep).join('/')] ?? 0;
        return sorted
            .map((spec, index) => ({ spec, index, seconds: known(spec) }))
            .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
            .map(({ spec }) => spec);
    }
}
