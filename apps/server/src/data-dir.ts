import Fs from 'node:fs/promises';
import Path from 'node:path';

// FLOWCTL_DATA_DIR holds the embedded database, the outbox (.eml files with sign-in and reset codes),
// uploads (people's addresses) and secrets.json: nothing in it is anyone else's business on the host.

/** Files the server creates are 0600 and folders 0700, whatever umask the operator's shell had. */
export const PRIVATE_UMASK = 0o077;

/**
 * Sets the process umask so every file and folder created from now on (by this process and the
 * processes it starts, such as the embedded database's initdb) is private, then makes the data
 * directory itself 0700, also when it already existed. Call it before anything is created there.
 */
export const makeDataDirPrivate = async (dataDir: string): Promise<void> => {
    process.umask(PRIVATE_UMASK);
    await Fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
    await Fs.chmod(dataDir, 0o700);
};

/**
 * Takes group and other access away from everything under `dir`. PGlite sets its files' modes itself
 * (0666 and 0644, as PostgreSQL asks of its emulated file system) regardless of the umask, so its
 * directory is swept after it has started; a data directory left readable by an older version is
 * fixed the same way.
 */
export const removeGroupAndOtherAccess = async (dir: string): Promise<void> => {
    const entries = await Fs.readdir(dir, { withFileTypes: true, recursive: true });
    await Promise.all(
        [dir, ...entries.map((entry) => Path.join(entry.parentPath, entry.name))].map(async (path) => {
            const stat = await Fs.lstat(path).catch(() => null);
            // Gone meanwhile, or a link (whose target is not ours to change): nothing to do.
            if (stat && !stat.isSymbolicLink() && (stat.mode & 0o077) !== 0) {
                await Fs.chmod(path, stat.mode & 0o700).catch((err: NodeJS.ErrnoException) => {
                    if (err.code !== 'ENOENT') {
                        throw err;
                    }
                });
            }
        })
    );
};
