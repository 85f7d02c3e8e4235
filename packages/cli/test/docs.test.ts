// Issue 33: the docs stay true. Every relative link of the README, docs/ and the packages' READMEs
// leads to a file (and heading) that exists; the packages' READMEs, read on the registry, link only
// absolutely; every flag a command block gives a flowctl command is in that command's --help; every
// file of examples/ a command block names is shipped; LICENSE matches the packages' license.
import { spawnSync } from 'node:child_process';
import Fs from 'node:fs';
import Path from 'node:path';

import { describe, expect, it } from 'vitest';

import { BIN, freshHome } from './harness.js';

const ROOT = Path.resolve(import.meta.dirname, '..', '..', '..');
const DOCS = ['README.md', ...Fs.readdirSync(Path.join(ROOT, 'docs')).map((name) => `docs/${name}`)];
const PACKAGE_READMES = ['packages/sdk/README.md', 'packages/cli/README.md', 'packages/engine/README.md'].filter((file) => Fs.existsSync(Path.join(ROOT, file)));

const read = (file: string) => Fs.readFileSync(Path.join(ROOT, file), 'utf8');
/** Links outside code. */
const links = (text: string): string[] => [...text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
/** GitHub's anchor of a heading. */
const slug = (heading: string) =>
    heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
const anchors = (text: string) => new Set([...text.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!)));
const codeBlocks = (text: string) => [...text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('docs', () => {
    it('is a short README linking docs/, with every relative link leading somewhere', () => {
        expect(read('README.md').split('\n').length).toBeLessThan(120);
        for (const file of DOCS) {
            for (const link of links(read(file))) {
                if (/^(https?:|mailto:)/.test(link)) {
                    continue;
                }

                const [path, anchor] = link.split('#') as [string, string | undefined];
                const target = path ? Path.join(Path.dirname(file), path) : file;
                expect(Fs.existsSync(Path.join(ROOT, target)), `${file}: link ${link}`).toBe(true);
                if (anchor) {
                    expect([...anchors(read(target))], `${file}: link ${link}`).toContain(anchor);
                }
            }
        }
    });

    it('the packages’ READMEs link only absolutely (they are read on the registry, without the repository)', () => {
        for (const file of PACKAGE_READMES) {
            for (const link of links(read(file))) {
                expect(link, file).toMatch(/^(https?:|mailto:|#)/);
            }
        }
    });

    it('every flowctl flag in a command block is in that command’s --help, and every examples/ file named is shipped', () => {
        const home = freshHome();
        const helps = new Map<string, string>();
        const help = (path: string[]): string | null => {
            const key = path.join(' ');
            if (!helps.has(key)) {
                const result = spawnSync(process.execPath, [BIN, ...path, '--help'], { env: { ...process.env, XDG_CONFIG_HOME: home }, encoding: 'utf8' });
                helps.set(key, result.status === 0 && result.stdout.startsWith(`Usage: flowctl ${key}`.trimEnd()) ? result.stdout : '');
            }

            return helps.get(key) || null;
        };

        let checked = 0;
        for (const file of [...DOCS, ...PACKAGE_READMES]) {
            for (const block of codeBlocks(read(file))) {
                for (const line of block.split('\n')) {
                    for (const named of line.matchAll(/\bexamples\/[\w./-]+/g)) {
                        expect(Fs.existsSync(Path.join(ROOT, named[0].replace(/[.,]$/, ''))), `${file}: ${line}`).toBe(true);
                    }

                    const command = /flowctl ((?:(?:--)?\s*)?[^|#;&]*)/.exec(line.replace(/npx --no (?:-- )?/, ''))?.[1];
                    if (!command || !/--[a-z]/.test(command)) {
                        continue;
                    }

                    const words = command.trim().split(/\s+/);
                    let path: string[] = [];
                    for (let n = Math.min(3, words.length); n >= 0; n--) {
                        const candidate = words.slice(0, n);
                        if (candidate.every((w) => /^[a-z][a-z-]*$/.test(w)) && help(candidate)) {
                            path = candidate;
                            break;
                        }
                    }

                    const text = help(path)!;
                    for (const flag of command.matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g)) {
                        expect(text, `${file}: \`${line.trim()}\`: ${flag[1]} is not in flowctl ${path.join(' ')} --help`).toContain(flag[1]);
                        checked += 1;
                    }
                }
            }
        }

        expect(checked).toBeGreaterThan(5);
    });

    it('ships a LICENSE that matches the packages’ license', () => {
        const license = read('LICENSE');
        for (const pkg of ['packages/sdk', 'packages/cli', 'packages/engine', 'apps/server']) {
            const declared = JSON.parse(read(`${pkg}/package.json`)).license;
            expect(declared).toBe('MIT');
            expect(license).toMatch(/^MIT License/);
        }

        expect(read('.gitignore')).toMatch(/^\*\.tgz$/m);
    });
});
