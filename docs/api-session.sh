#!/usr/bin/env bash
# Plays the example session of docs/API.md against a running Séance and prints each
# request and reply. Usage: docs/api-session.sh http://127.0.0.1:4747 CODE
set -euo pipefail
base=$1 code=$2
call() { # METHOD PATH [JSON]
  echo "\$ $1 $2${3:+ $3}"
  curl -s -w '\n→ HTTP %{http_code}' -X "$1" -H "Authorization: Bearer $code" ${3:+-H 'Content-Type: application/json' -d "$3"} "$base/api$2"
  echo; echo
}
call POST /mysterium '{"seed": 2015, "setup": {"ghost": "Laura", "difficulty": "medium", "secrets": "app_kept", "players": [{"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]}, {"name": "Carl", "colours": ["green"], "age": 40}, {"name": "Paul", "colours": ["white"]}]}}'
call GET /games
call GET '/mysterium/1?role=table'
call POST /mysterium/1/commands '{"version": 0, "command": {"type": "give_vision", "psychic": 0}}'
call POST /mysterium/1/commands '{"version": 1, "command": {"type": "give_vision", "psychic": 0}}'
call POST /mysterium/1/commands '{"version": 0, "command": {"type": "give_vision", "psychic": 1}}'
call POST /mysterium/1/commands '{"version": 1, "command": {"type": "place_token", "by": 1, "on": 0, "face": "agree"}}'
call POST /mysterium/1/undo '{"version": 2}'
call POST /mysterium/1/redo '{"version": 3}'
call GET '/mysterium/1?role=ghost'
