// `${XDG_CONFIG_HOME:-~/.config}/flowctl/credentials.json`: one entry per profile, mode 0600.
// Every write goes to a new 0600 file that is renamed over the old one, so a reader never sees
// half a file and the secrets are never readable by others, not even for an instant.
import Fs from 'node:fs';
import Os from 'node:os';
import Path from 'node:path';

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export interface Profile {
    apiUrl?: string;
    /** The account's address: set by register/login, kept for `verify` and `login` defaults. */
    email?: string;
    accessToken?: string;
    refreshToken?: string;
}

interface CredentialsFile {
    profiles: Record<string, Profile>;
}

export const configDir = (env: NodeJS.ProcessEnv = process.env): string =>
    Path.join(env.XDG_CONFIG_HOME || Path.join(Os.homedir(), '.config'), 'flowctl');

const credentialsPath = (env?: NodeJS.ProcessEnv) => Path.join(configDir(env), 'credentials.json');

/** Reads a JSON file of the config dir; a missing file is `fallback`, a corrupt one an error naming it. */
export const readJson = <T>(file: string, fallback: T): T => {
    let text: string;
    try {
        text = Fs.readFileSync(file, 'utf8');
    } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
            return fallback;
        }

        throw err;
    }

    try {
        return JSON.parse(text) as T;
    } catch {
        throw new Error(`${file} is not valid JSON: fix or delete it`);
    }
};

export const writePrivateJson = (file: string, value: unknown): void => {
    Fs.mkdirSync(Path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
    const fd = Fs.openSync(temp, 'wx', 0o600);
    try {
        Fs.writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
        Fs.fsyncSync(fd);
    } finally {
        Fs.closeSync(fd);
    }

    Fs.renameSync(temp, file);
};

const load = (env?: NodeJS.ProcessEnv): CredentialsFile => {
    const file = readJson<Partial<CredentialsFile>>(credentialsPath(env), {});
    return { profiles: file.profiles && typeof file.profiles === 'object' ? file.profiles : {} };
};

export const readProfile = (name: string, env?: NodeJS.ProcessEnv): Profile => load(env).profiles[name] ?? {};

/** Merges `patch` into the profile (an `undefined` value removes the key) and saves. */
export const updateProfile = (name: string, patch: Partial<Profile>, env?: NodeJS.ProcessEnv): Profile => {
    const file = load(env);
    const next: Profile = { ...file.profiles[name] };
    for (const [key, value] of Object.entries(patch) as [keyof Profile, string | undefined][]) {
        if (value === undefined) {
            delete next[key];
        } else {
            next[key] = value;
        }
    }

    file.profiles[name] = next;
    writePrivateJson(credentialsPath(env), file);
    return next;
};
