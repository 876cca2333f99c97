#!/bin/bash
# setup.sh: puts the upstream parsers into bench/upstream/work/ (ignored by
# git; upstream code is never committed). Give the three repositories as
# git directories (clones), at the commits the README names:
#
#   LLM_MSG_IO=~/src/llm-msg-io PROMPTY=~/src/prompty PRAPTI=~/src/prapti ./setup.sh
#
# - llm-msg-io (TypeScript): src/ is bundled with esbuild into one ES
#   module holding the STF decoder (arktype, json5 and smol-toml from npm).
# - Prompty: runtime/python/prompty/prompty as it is, with an empty
#   aiofiles stub (the package imports it at load; the parser never uses
#   it). Needs PyYAML.
# - Prapti: the three files of its reader (chat_markdown_parser.py,
#   command_message.py, source_location.py: standard library only) in a
#   package of their own, without prapti/__init__'s imports (pydantic).
set -euo pipefail
cd "$(dirname "$0")"
: "${LLM_MSG_IO:?git directory of 123jimin-llm/llm-msg-io}" "${PROMPTY:?git directory of microsoft/prompty}" "${PRAPTI:?git directory of prapti-ai/prapti}"
rm -rf work
mkdir -p work/llm-msg-io work/prompty work/stubs work/prapti/core
git --git-dir="$LLM_MSG_IO" archive "${LLM_MSG_IO_REV:-70dba2c3516109463ab220771c3737831faa13a3}" src | tar -x -C work/llm-msg-io
git --git-dir="$PROMPTY" archive --prefix=prompty/ "${PROMPTY_REV:-75e4d0e5}:runtime/python/prompty/prompty" | tar -x -C work/prompty
git --git-dir="$PRAPTI" archive "${PRAPTI_REV:-cfed1b7c75c738d5a8595f4e956552f9790654e0}" prapti/core/chat_markdown_parser.py prapti/core/command_message.py prapti/core/source_location.py | tar -x -C work/prapti --strip-components=1
touch work/stubs/aiofiles.py work/prapti/core/__init__.py
(
	cd work/llm-msg-io
	echo '{"private": true, "type": "module"}' >package.json # not upstream's: its dev tools are not all on npm
	npm install --no-save --no-audit --no-fund --silent esbuild@0.25 arktype@2 json5@2 smol-toml@1 >/dev/null
	npx esbuild src/file-codec/stf/decoder.ts --bundle --format=esm --platform=node --outfile=../stf-decoder.mjs --log-level=warning
)
echo "upstream parsers ready in $(pwd)/work"
