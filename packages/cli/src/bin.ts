// The entry point. `flowctl --version` answers here without loading commander or any command;
// everything else is imported on demand so start-up stays fast.
declare const __FLOWCTL_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${__FLOWCTL_VERSION__}\n`);
} else {
    const { main } = await import('./main.js');
    process.exitCode = await main(argv, __FLOWCTL_VERSION__);
}
