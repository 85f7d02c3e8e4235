#!/usr/bin/env bash
# From an empty account to e-mails sent, with the flowctl CLI. Start the server first (`npm start`,
# which also builds the CLI); without SMTP_URL every e-mail lands in .flowctl/outbox as an .eml file.
set -euo pipefail
cd "$(dirname "$0")/.."
export FLOWCTL_API_URL=${FLOWCTL_API_URL:-http://127.0.0.1:3000}
OUTBOX=${FLOWCTL_DATA_DIR:-.flowctl}/outbox
EMAIL=${EMAIL:-me-$RANDOM@example.com}
# A profile of its own, so a sign-in you saved before is left as it was.
export FLOWCTL_PROFILE=${FLOWCTL_PROFILE:-quickstart}
flowctl() { npx --no flowctl "$@"; }

echo "Signing in as profile '$FLOWCTL_PROFILE' (your other saved sign-ins are left alone)."

echo "1. register $EMAIL"
printf %s 'correct horse battery' | flowctl register --email "$EMAIL" --full-name 'Quick Start' --password-stdin

echo "2. verify with the six-digit code from the outbox"
for _ in $(seq 50); do
  CODE=$(grep -l "$EMAIL" "$OUTBOX"/*.eml 2>/dev/null | tail -1 | xargs -r grep -ohE 'verification code is [0-9]{6}' | grep -oE '[0-9]{6}' | head -1 || true)
  [ -n "$CODE" ] && break
  sleep 0.2
done
flowctl verify --email "$EMAIL" --code "$CODE"

echo "3. upload contacts.csv"
flowctl upload examples/contacts.csv

echo "4. create the workflows from YAML (unchanged files are not sent again)"
flowctl apply -f examples/workflows/

echo "5. run one and watch it to the end"
flowctl run 'Newsletter to subscribers over 30' --watch

echo "Signed in as profile '$FLOWCTL_PROFILE': add --profile $FLOWCTL_PROFILE to later commands, or export FLOWCTL_PROFILE=$FLOWCTL_PROFILE"

echo "6. the e-mails it sent:"
ls -t "$OUTBOX"/*.eml | head -3

