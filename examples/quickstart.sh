#!/usr/bin/env bash
# From an empty account to e-mails sent, with curl and the API alone. Start the server first
# (`npm start`); without SMTP_URL every e-mail lands in .flowctl/outbox as an .eml file.
set -euo pipefail
cd "$(dirname "$0")"
API=${FLOWCTL_API_URL:-http://127.0.0.1:3000}
OUTBOX=${FLOWCTL_DATA_DIR:-../.flowctl}/outbox
EMAIL=${EMAIL:-me-$RANDOM@example.com}
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(process.argv[1].split(".").reduce((o,k)=>o[k],v))})' "$1"; }

echo "1. register $EMAIL"
curl -sf "$API/api/auth/register" -H 'content-type: application/json' \
  -d "{\"email\":\"$EMAIL\",\"password\":\"correct horse battery\",\"fullName\":\"Quick Start\"}" >/dev/null

echo "2. verify with the one-time code from the outbox"
sleep 1
OTP=$(grep -l "$EMAIL" "$OUTBOX"/*.eml | tail -1 | xargs grep -ohE '\b[0-9]{6}\b' | head -1)
TOKEN=$(curl -sf "$API/api/auth/verify-email" -H 'content-type: application/json' \
  -d "{\"email\":\"$EMAIL\",\"otp\":\"$OTP\"}" | json accessToken)
AUTH="authorization: Bearer $TOKEN"

echo "3. upload contacts.csv"
UPLOAD=$(curl -sf "$API/api/uploads" -H "$AUTH" -F file=@contacts.csv | json uploadId)

echo "4. create the workflow"
WORKFLOW=$(sed "s/UPLOAD_ID/$UPLOAD/" newsletter.workflow.json |
  curl -sf "$API/api/workflows" -H "$AUTH" -H 'content-type: application/json' -d @- | json workflowId)

echo "5. run it"
RUN=$(curl -sf -X POST "$API/api/workflows/$WORKFLOW/run" -H "$AUTH" | json runId)

echo "6. poll until it ends"
sleep 1
for delay in 2 4 8 16 30 30 30; do
  STATUS=$(curl -sf "$API/api/workflows/runs/$RUN" -H "$AUTH" | json status)
  echo "   $RUN: $STATUS"
  case $STATUS in SUCCESS|FAILED|CANCELLED) break ;; esac
  sleep "$delay"
done
curl -sf "$API/api/workflows/runs/$RUN" -H "$AUTH" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify(JSON.parse(s).result)))'
