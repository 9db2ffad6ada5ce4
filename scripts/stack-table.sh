#!/usr/bin/env bash
# docs/stacks.md's stack-by-behaviour table, from measurements only. Each test that measures a
# cell prints `STACK-CELL<TAB>stack<TAB>behaviour<TAB>text` (Tests/.../Support/StackCell.swift),
# or `behaviour: part` for one part of a cell; `make bench-tables` adds the start-up and latency
# cells of a `make bench-stacks` run.
#
#   scripts/stack-table.sh LOG...   takes the cells the logs hold into bench/results/stacks.tsv
#                                   (a cell measured again replaces the kept one), then writes
#                                   the table between docs/stacks.md's stacks:table markers
#   scripts/stack-table.sh --check  fails when the committed table is not what stacks.tsv gives,
#                                   or when a stack has a behaviour no run measured
#
# `make test-matrix` runs it on the logs of `make test` (the system's OpenAL Soft) and its own.
set -euo pipefail
cd "$(dirname "$0")/.."
cells=bench/results/stacks.tsv
document=docs/stacks.md
stacks=("1.19.1 / PulseAudio" "1.19.1 / PipeWire (pipewire-pulse)" "1.24.2 / PulseAudio"
  "1.24.2 / PipeWire (pipewire-pulse)" "1.24.2 / PipeWire (native backend)")
behaviours=("start-up" "latency" "loss and rebuild" "phone stream" "default sink" "sleep" "SIGSTOP")

table() {
  local header="| stack |" rule="| --- |" stack behaviour text row
  for behaviour in "${behaviours[@]}"; do header+=" $behaviour |"; rule+=" --- |"; done
  echo "$header"
  echo "$rule"
  for stack in "${stacks[@]}"; do
    row="| $stack |"
    for behaviour in "${behaviours[@]}"; do
      # A cell measured in parts (`behaviour: part`) shows each part, in the file's order.
      text=$(awk -F '\t' -v s="$stack" -v b="$behaviour" '
        $1 == s && $2 == b { t = t (t == "" ? "" : "; ") $3 }
        $1 == s && index($2, b ": ") == 1 { t = t (t == "" ? "" : "; ") substr($2, length(b) + 3) ": " $3 }
        END { print t }' "$cells")
      text=${text//|/\\|}
      row+=" ${text:-not measured} |"
    done
    echo "$row"
  done
}

written() {
  awk '/<!-- stacks:table:end -->/ { inside = 0 } inside { print } /<!-- stacks:table:begin -->/ { inside = 1 }' "$document"
}

if [ "${1:-}" = "--check" ]; then
  status=0
  generated=$(table)
  if [ "$generated" != "$(written)" ]; then
    echo "stack-table: the table in $document is not what $cells gives; run scripts/stack-table.sh with the test logs" >&2
    status=1
  fi
  if [[ "$generated" == *"not measured"* ]]; then
    echo "stack-table: $cells has no measurement for some cells of these stacks:" >&2
    grep "not measured" <<<"$generated" | cut -d'|' -f2 >&2
    status=1
  fi
  exit "$status"
fi

mkdir -p "$(dirname "$cells")"
touch "$cells"
new=$(mktemp)
trap 'rm -f "$new"' EXIT
# Kept cells first, then each log's in order: the last line for a cell wins.
{ cat "$cells"; for log in "$@"; do [ -f "$log" ] && grep -a -o 'STACK-CELL	.*' "$log" | cut -f2-; done; } |
  awk -F '\t' 'NF == 3 { key = $1 FS $2; if (!(key in text)) order[++n] = key; text[key] = $3 }
    END { for (i = 1; i <= n; i++) print order[i] FS text[order[i]] }' | sort -t "$(printf '\t')" -k1,1 -k2,2 >"$new"
mv "$new" "$cells"
trap - EXIT
generated=$(mktemp)
table >"$generated"
awk -v table="$generated" '
  /<!-- stacks:table:begin -->/ { print; while ((getline line < table) > 0) print line; skipping = 1; next }
  /<!-- stacks:table:end -->/ { skipping = 0 }
  !skipping { print }' "$document" >"$document.new"
mv "$document.new" "$document"
rm -f "$generated"
echo "stack-table: $(wc -l <"$cells") cells in $cells; $document written"
