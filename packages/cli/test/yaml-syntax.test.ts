// YAML syntax errors point at the line and column the parser stopped at, not at 1:1.
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { flowctl, freshHome, workflowDir } from './harness.js';

const misIndented = `name: Mis-indented
graph:
  nodes:
    - id: start
      type: TRIGGER
     data: {}
  edges: []
`;

describe('a YAML syntax error', () => {
    it('is reported at its line and column: a mis-indented line, an unclosed [, an unterminated quote', async () => {
        const dir = workflowDir({
            'indent.yaml': misIndented,
            'bracket.yaml': 'name: Bracket\ngraph:\n  nodes: [\n    { id: start, type: TRIGGER, data: {} }\n',
            'quote.yaml': 'name: "Unterminated\ngraph:\n  nodes: []\n  edges: []\n'
        });
        // No server answers at port 9: the files are rejected before any request.
        const result = await flowctl(['apply', '-f', dir, '--api-url', 'http://127.0.0.1:9'], { home: freshHome(), cwd: dir });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain('indent.yaml:6:1: ');
        expect(result.stderr).toMatch(/bracket\.yaml:5:1: .*\]/);
        expect(result.stderr).toMatch(/quote\.yaml:5:1: Missing closing "quote/);
        expect(result.stderr).not.toMatch(/:1:1: /);

        const json = await flowctl(['--json', 'apply', '-f', Path.join(dir, 'indent.yaml'), '--api-url', 'http://127.0.0.1:9'], { home: freshHome(), cwd: dir });
        expect(json.json.error.problems).toEqual([{ file: 'indent.yaml', line: 6, col: 1, message: expect.stringContaining('Sequence item') }]);
    });
});
