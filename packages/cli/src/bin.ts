// The entry point. `flowctl --version` answers here without loading commander or any command;
// everything else is imported on demand so start-up stays fast.
import Module from 'node:module';

declare const __FLOWCTL_VERSION__: string;

// Node keeps the compiled code of commander and our chunks on disk (in the OS temp folder), so
// every start after the first skips most parsing and compiling.
Module.enableCompileCache?.();

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${__FLOWCTL_VERSION__}\n`);
} else {
    const { main } = await import('./main.js');
    process.exitCode = await main(argv, __FLOWCTL_VERSION__);
}
