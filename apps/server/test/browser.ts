// A real Chromium for browser tests, from the npm registry: @sparticuz/chromium ships the browser
// (brotli-compressed) inside the package, so `npm ci` is all a machine needs; playwright-core drives it.
// CHROMIUM_PATH=/path/to/chrome uses another browser instead.
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

import Chromium from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

/** The package's version (its exports hide package.json): the folder above the resolved entry that has one. */
const packageVersion = (): string => {
    let dir = Path.dirname(new URL(import.meta.resolve('@sparticuz/chromium')).pathname);
    while (!Fs.existsSync(Path.join(dir, 'package.json')) || !Fs.existsSync(Path.join(dir, 'bin'))) {
        dir = Path.dirname(dir);
    }
    return (JSON.parse(Fs.readFileSync(Path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
};

/**
 * The browser's path, unpacked once per package version into the OS temp folder. The package would
 * unpack into the temp folder itself and trust any `chromium` file found there, even one another
 * process is still writing; so it unpacks into a private folder (its TMPDIR, for that call) which
 * is then renamed into place: whoever renames first wins, the others use theirs.
 */
const executablePath = async (): Promise<string> => {
    if (process.env.CHROMIUM_PATH) {
        return process.env.CHROMIUM_PATH;
    }

    const home = Path.join(Os.tmpdir(), `flowctl-sparticuz-chromium-${packageVersion()}`);
    const binary = Path.join(home, 'chromium');
    if (Fs.existsSync(binary)) {
        return binary;
    }

    const scratch = Fs.mkdtempSync(`${home}.unpacking-`);
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
        await Chromium.executablePath();
    } finally {
        if (tmpdir === undefined) {
            delete process.env.TMPDIR;
        } else {
            process.env.TMPDIR = tmpdir;
        }
    }

    try {
        Fs.renameSync(scratch, home);
    } catch (err) {
        Fs.rmSync(scratch, { recursive: true, force: true });
        if (!Fs.existsSync(binary)) {
            throw err;
        }
    }

    return binary;
};

/** A headless Chromium; close it when done. */
export const launchBrowser = async (): Promise<Browser> => {
    // No sandbox: tests often run as root (in containers), where Chromium refuses to start with one.
    return await chromium.launch({ executablePath: await executablePath(), args: ['--no-sandbox'] });
};
