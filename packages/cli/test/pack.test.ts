// The packed tarball installs on its own into an empty global prefix and works there: the SDK and
// the engine are bundled in, the rest comes from its dependencies, all of them published. Scripts are
// skipped when packing: the suite's build has just run (prepack building an unbuilt clone is proven
// by .ci/newcomer.sh).
import { execFileSync } from 'node:child_process';
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import { expect, it } from 'vitest';

const root = Path.resolve(import.meta.dirname, '..');

it('npm pack, npm i -g into an empty prefix, flowctl --version and a YAML check', () => {
    const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), 'flowctl-pack-'));
    try {
        const [packed] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8' })) as { filename: string; files: { path: string }[] }[];
        expect(packed!.files.map((f) => f.path)).toEqual(expect.arrayContaining(['bin/flowctl.js', 'dist/bin.js']));
        const manifest = JSON.parse(Fs.readFileSync(Path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
        const unpublished = Object.keys(manifest.dependencies).filter((name) => name === 'flowctl' || name.startsWith('@flowctl/'));
        expect(unpublished, 'the workspace packages are bundled, never installed').toEqual([]);
        const prefix = Path.join(dir, 'prefix');
        execFileSync('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', Path.join(dir, packed!.filename)], { cwd: dir, stdio: 'pipe' });

        const bin = Path.join(prefix, 'bin', 'flowctl');
        const { version } = JSON.parse(Fs.readFileSync(Path.join(root, 'package.json'), 'utf8'));
        expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toBe(version);

        Fs.writeFileSync(Path.join(dir, 'wf.yaml'), 'name: x\ngraph:\n  nodes:\n    - { id: a, type: FILTER, data: {} }\n  edges: []\n');
        let stderr = '';
        try {
            execFileSync(bin, ['apply', '-f', 'wf.yaml'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
        } catch (err) {
            expect((err as { status: number }).status).toBe(2);
            stderr = (err as { stderr: string }).stderr;
        }

        expect(stderr).toContain("wf.yaml:4:36: a FILTER node needs 'source'");
    } finally {
        Fs.rmSync(dir, { recursive: true, force: true });
    }
});
