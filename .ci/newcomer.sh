#!/usr/bin/env bash
# The newcomer check: the project as a new user meets it. A fresh clone of this commit in a temporary
# folder; the README's two commands as written (`npm ci && npm start`, on a free port with its own data
# folder); examples/quickstart.sh to e-mails in the outbox; then the SDK and the CLI packed, installed
# into an empty folder and used against that server with a personal API token. Everything outside npm
# scripts runs on the system's Node, as it would for the user. The server is stopped on exit.
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

step "npm ci && npm start (port $port)"
# Its own process group (setsid), so that cleanup stops npm, turbo and the server together.
setsid bash -c 'npm ci && npm start' </dev/null >"$work/server.log" 2>&1 &
server=$!
until curl -fsS "$FLOWCTL_API_URL/readyz" >/dev/null 2>&1; do
  if ! kill -0 "$server" 2>/dev/null; then
    tail -50 "$work/server.log" >&2
    fail "npm ci && npm start ended before the server was ready"
  fi
  sleep 1
done

step "examples/quickstart.sh"
EMAIL=newcomer@example.com examples/quickstart.sh </dev/null
sent=$(grep -l '^Subject: Hello ' "$FLOWCTL_DATA_DIR"/outbox/*.eml | wc -l)
[ "$sent" -eq 3 ] || fail "the Quickstart's run should have sent 3 e-mails (subscribers over 30); the outbox has $sent"

step "the packed CLI and SDK, installed into an empty folder"
npm pack -w flowctl -w @flowctl/sdk --pack-destination "$work" >/dev/null
mkdir "$work/app"
cd "$work/app"
printf '{ "name": "app", "private": true, "type": "module" }\n' >package.json
npm install --no-audit --no-fund --prefer-offline "$work"/flowctl-[0-9]*.tgz "$work"/flowctl-sdk-[0-9]*.tgz
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
