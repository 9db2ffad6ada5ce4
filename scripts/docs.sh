#!/usr/bin/env bash
# Builds the DocC catalog for the Interlude library (Sources/Interlude/Interlude.docc) and fails on
# a broken symbol or article link (--warnings-as-errors) or on a public symbol without a doc
# comment. The archive lands in .build/plugins/Swift-DocC/outputs/Interlude.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."

report=$(mktemp)
trap 'rm -f "$report"' EXIT
swift package --disable-sandbox generate-documentation --target Interlude --warnings-as-errors \
  --experimental-documentation-coverage --coverage-summary-level detailed > "$report" 2>&1 || {
  grep -E "warning:|error:" "$report" || tail -20 "$report"
  echo "docs: DocC failed (a broken link or an error above)" >&2
  exit 1
}
# The detailed coverage table: symbol | kind | has abstract | is inherited | ... | url. What the
# compiler synthesizes (Codable, Hashable, Equatable, RawRepresentable of enums) has no source to
# document, so it is left out.
undocumented=$(awk -F'|' 'NF > 7 {
    name = $1; gsub(/^ +| +$/, "", name)
    abstract = $3; gsub(/ /, "", abstract); inherited = $4; gsub(/ /, "", inherited)
    url = $8; gsub(/ /, "", url)
    if (abstract == "false" && inherited == "false" && url ~ /^doc:/ &&
        name !~ /^(init\(from:\)|encode\(to:\)|hash\(into:\)|hashValue|!=\(_:_:\)|==\(_:_:\)|init\(rawValue:\)|rawValue)$/ &&
        url !~ /-Implementations$/)
      print "  " url
  }' "$report" | sed 's#doc://Interlude/documentation/Interlude/##' | sort)
if [ -n "$undocumented" ]; then
  echo "docs: public symbols without a doc comment:" >&2
  echo "$undocumented" >&2
  exit 1
fi
# Every type has its place in the catalog's topics, and every member of SoundEngine in its
# page's: DocC files what is not curated under a generated section. Each member is listed once.
archive=.build/plugins/Swift-DocC/outputs/Interlude.doccarchive/data/documentation
for page in interlude.json interlude/soundengine.json; do
  # The page's "topicSections" array, cut out by counting brackets (the JSON is one line and
  # its keys come in no fixed order); a generated section holds what no topic lists.
  generated=$(awk '{
      start = index($0, "\"topicSections\":[")
      if (start == 0) exit
      text = substr($0, start + 16); depth = 0
      for (i = 1; i <= length(text); i++) {
        c = substr(text, i, 1)
        if (c == "[") depth++
        else if (c == "]") { depth--; if (depth == 0) { print substr(text, 1, i); exit } }
      }
    }' "$archive/$page" | grep -o '"generated":true' || true)
  if [ -n "$generated" ]; then
    echo "docs: $page has symbols no topic lists (add them to Interlude.md or SoundEngine.md)" >&2
    exit 1
  fi
done
twice=$(grep -oE '^- ``[^`]+``' Sources/Interlude/Interlude.docc/SoundEngine.md | sort | uniq -d)
if [ -n "$twice" ]; then
  echo "docs: listed more than once in SoundEngine.md:" >&2
  echo "$twice" >&2
  exit 1
fi
grep -E "^Generated documentation archive" -A1 "$report" || true
echo "docs: every public symbol of Interlude is documented and curated once; no broken link"
