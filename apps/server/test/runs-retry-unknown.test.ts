import { describe, it } from 'vitest';

import { killRefuseRetry } from './retry-unknown.js';

// Issue 26: a retry after a crash whose unanswered e-mails were then refused (the scenario: retry-unknown.ts;
// the variant that executes the graph again: runs-retry-unknown-rederive.test.ts).

describe('runs: a retry after a crash whose unanswered e-mails were then refused', () => {
    it('does not send again the e-mails whose first copy may have arrived, and says how many it left out', () => killRefuseRetry(false));
});
