#!/usr/bin/env bash
# The newcomer check: the project as a new user meets it. A fresh clone of this commit in a temporary
# folder; the README's two commands as written (`npm ci`, then `npm start` on a free port with its own
# data folder), and between them what a new user meets before anything is built: the flowctl command
# npm linked (a committed shim that says how to build), and `npm pack` building what it packs;
# examples/quickstart.sh to e-mails in the outbox; then the SDK and the CLI packed, installed into an
# empty folder and used against that server with a personal API token. Everything outside npm scripts
# runs on the system's Node, as it would for the user, and no npm command may warn of an unsupported
# engine. The server is stopped on exit.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/flowctl-newcomer.XXXXXX")
server=
cleanup() {
  if [ -n "$server" ]; then
    kill -TERM -- "-$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "newcomer check: $*" >&2; exit 1; }
step() { echo "newcomer check: $*"; }

step "fresh clone of $(git -C "$repo" rev-parse --short HEAD) in $work/flowctl"
git init -q "$work/flowctl"
git -C "$work/flowctl" fetch -q --depth 1 "$repo" HEAD
git -C "$work/flowctl" checkout -q FETCH_HEAD
cd "$work/flowctl"

port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
export PORT=$port FLOWCTL_DATA_DIR="$work/data" XDG_CONFIG_HOME="$work/config"
export FLOWCTL_API_URL="http://127.0.0.1:$port"
unset FLOWCTL_TOKEN DATABASE_URL SMTP_URL

step "npm ci"
npm ci </dev/null >"$work/ci.log" 2>&1 || { tail -50 "$work/ci.log" >&2; fail "npm ci failed"; }
if grep -q EBADENGINE "$work/ci.log"; then
  grep EBADENGINE "$work/ci.log" >&2
  fail "npm ci on the system's Node $(node -v) warns of an unsupported engine"
fi

step "before anything is built, npm has linked flowctl, and it says how to build"
[ ! -e packages/cli/dist ] || fail "packages/cli/dist is in the clone: dist/ must not be committed"
[ -e node_modules/.bin/flowctl ] || fail "npm ci did not link node_modules/.bin/flowctl"
# (Not `npx --no flowctl --version`: npx answers a lone --version or --help itself.)
status=0
unbuilt=$(npx --no flowctl apply --help 2>&1 </dev/null) || status=$?
[ "$status" -eq 1 ] || fail "the unbuilt flowctl exits $status, not 1: $unbuilt"
echo "$unbuilt" | grep -qF 'flowctl is not built yet: run `npm run build`' || fail "the unbuilt flowctl does not say how to build: $unbuilt"

step "npm pack builds what it packs; then \`npx --no flowctl\` runs the build"
npm pack -w flowctl -w @flowctl/sdk --pack-destination "$work" </dev/null >"$work/pack.log" 2>&1 || { tail -50 "$work/pack.log" >&2; fail "npm pack failed"; }
version=$(node -p "require('./packages/cli/package.json').version")
cli_tgz="$work/flowctl-$version.tgz"
packed=$(tar -tzf "$cli_tgz")
for file in package/bin/flowctl.js package/dist/bin.js; do
  echo "$packed" | grep -qx "$file" || fail "$cli_tgz lacks $file"
done
# (Output read whole before grep: with pipefail, `grep -q` ending the pipe early could fail it.)
built=$(npx --no flowctl apply --help </dev/null) || fail "the built flowctl apply --help failed"
grep -q -- --dry-run <<<"$built" || fail "the built flowctl apply --help does not list --dry-run: $built"
[ "$(npx --no -- flowctl --version </dev/null)" = "$version" ] || fail "flowctl --version is not $version"

step "the packed CLI, installed globally (an empty prefix) on the system's Node"
npm install --global --prefix "$work/prefix" --prefer-offline --no-audit --no-fund "$cli_tgz" </dev/null >"$work/global.log" 2>&1 || { tail -50 "$work/global.log" >&2; fail "npm install --global failed"; }
! grep -q EBADENGINE "$work/global.log" || fail "installing the CLI on the system's Node $(node -v) warns of an unsupported engine"
global=$("$work/prefix/bin/flowctl" apply --help </dev/null) || fail "the globally installed flowctl apply --help failed"
grep -q -- --dry-run <<<"$global" || fail "the globally installed flowctl apply --help does not list --dry-run: $global"

step "npm start (port $port)"
# Its own process group (setsid), so that cleanup stops npm, turbo and the server together.
setsid npm start </dev/null >"$work/server.log" 2>&1 &
server=$!
until curl -fsS "$FLOWCTL_API_URL/readyz" >/dev/null 2>&1; do
  if ! kill -0 "$server" 2>/dev/null; then
    tail -50 "$work/server.log" >&2
    fail "npm start ended before the server was ready"
  fi
  sleep 1
done

step "a second server on the same data folder is refused, naming the first"
if second=$(PORT=0 node apps/server/dist/main.js 2>&1 </dev/null); then
  fail "a second server started on $FLOWCTL_DATA_DIR"
fi
echo "$second" | grep -q "already uses the embedded database in .*(pid [0-9]*, $FLOWCTL_API_URL)" || fail "the second server's refusal does not name the first: $second"

step "nothing but the HTTP port answers: the embedded database is out of reach"
node --input-type=module -e "
import Fs from 'node:fs';
import Net from 'node:net';
import pg from 'pg';
// The lock in the data folder names the owner; its sockets are read from /proc as any local user can.
const owner = await new Promise((resolve, reject) => {
  let text = '';
  Net.connect(process.env.FLOWCTL_DATA_DIR + '/server.lock').setEncoding('utf8').on('data', (c) => (text += c)).on('end', () => resolve(JSON.parse(text))).on('error', reject);
});
const inodes = new Set(Fs.readdirSync('/proc/' + owner.pid + '/fd').map((fd) => { try { return /socket:\\[(\\d+)\\]/.exec(Fs.readlinkSync('/proc/' + owner.pid + '/fd/' + fd))?.[1]; } catch { return undefined; } }));
const ports = ['tcp', 'tcp6'].flatMap((t) => Fs.readFileSync('/proc/' + owner.pid + '/net/' + t, 'utf8').trim().split('\\n').slice(1))
  .map((l) => l.trim().split(/\\s+/)).filter((f) => f[3] === '0A' && inodes.has(f[9])).map((f) => parseInt(f[1].split(':')[1], 16));
const http = Number(new URL(process.env.FLOWCTL_API_URL).port);
if (ports.length !== 1 || ports[0] !== http) throw new Error('the server (pid ' + owner.pid + ') listens on ' + ports.join(', ') + ', not only on ' + http);
const client = new pg.Client({ host: '127.0.0.1', port: http, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 3000 });
client.on('error', () => {});
if (await client.connect().then(() => true, () => false)) throw new Error('PostgreSQL answered on port ' + http);
console.log('newcomer check: pid', owner.pid, 'listens on port', http, 'alone, and it does not speak PostgreSQL');
"

step "examples/quickstart.sh"
EMAIL=newcomer@example.com examples/quickstart.sh </dev/null
sent=$(grep -l '^Subject: Hello ' "$FLOWCTL_DATA_DIR"/outbox/*.eml | wc -l)
[ "$sent" -eq 3 ] || fail "the Quickstart's run should have sent 3 e-mails (subscribers over 30); the outbox has $sent"

step "the packed CLI and SDK, installed into an empty folder"
mkdir "$work/app"
cd "$work/app"
printf '{ "name": "app", "private": true, "type": "module" }\n' >package.json
npm install --no-audit --no-fund --prefer-offline "$cli_tgz" "$work"/flowctl-sdk-[0-9]*.tgz </dev/null 2>&1 | tee "$work/app.log"
! grep -q EBADENGINE "$work/app.log" || fail "installing the CLI and the SDK on the system's Node $(node -v) warns of an unsupported engine"
[ ! -e node_modules/@flowctl/engine ] || fail "the engine should be bundled, not installed"

# A personal API token, from the Quickstart's sign-in; from here on the token alone (the CI way).
FLOWCTL_TOKEN=$(npx --no flowctl tokens create --name newcomer --json | node -p "JSON.parse(require('node:fs').readFileSync(0, 'utf8')).token")
export FLOWCTL_TOKEN
rm -rf "$XDG_CONFIG_HOME"
npx --no flowctl whoami | grep -q newcomer@example.com || fail "flowctl whoami with FLOWCTL_TOKEN does not name the account"
npx --no flowctl runs list 'Newsletter to subscribers over 30' --json | grep -q '"SUCCESS"' || fail "flowctl runs list shows no successful run"

node --input-type=module -e "
import Flowctl from '@flowctl/sdk';
const client = new Flowctl({ baseUrl: process.env.FLOWCTL_API_URL, apiToken: process.env.FLOWCTL_TOKEN });
const me = await client.auth.me();
let runs = 0;
for await (const workflow of client.workflows.list()) {
  for await (const run of client.runs.list(workflow.id)) if (run.status === 'SUCCESS') runs++;
}
await client.close();
if (me.email !== 'newcomer@example.com' || runs < 1) throw new Error('SDK: ' + JSON.stringify({ me, runs }));
console.log('newcomer check: the SDK signs in as', me.email, 'and sees', runs, 'successful run(s)');
"
node -e "const { Flowctl } = require('@flowctl/sdk'); if (typeof Flowctl !== 'function') process.exit(1)" || fail "the SDK does not load from CommonJS"

step "passed (Node $(node -v) outside npm scripts)"
