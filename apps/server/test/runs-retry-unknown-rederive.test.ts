import { describe, it } from 'vitest';

import { killRefuseRetry } from './retry-unknown.js';

// Issue 26: as runs-retry-unknown.test.ts, with a run that stops before a node other than OUTPUT
// succeeds, so that its retry executes the graph again.

describe('runs: a retry after a crash whose unanswered e-mails were then refused', () => {
    it('does not send them either when the retry executes the graph again', () => killRefuseRetry(true));
});
