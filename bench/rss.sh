#!/bin/bash
# rss.sh BINARY DIR SIZE...: the peak RSS in MB (GNU time's %M) of
# `promptfmt parse`, `messages`, `check` and `convert` (to STF; STF to
# Prapti) on SIZE-MB inputs of short messages in every format, made by
# bench/gen into DIR (and kept there). Prints one line per format and
# size: format size parse messages check convert (a command that failed
# shows its exit status: Prompty's and Dotprompt's parse and messages
# render the file as a template, whose source is limited to 8 MiB).
set -e
bin=$(realpath "$1") dir=$2
shift 2
cd "$(dirname "$0")/.."
mkdir -p "$dir"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for size in "$@"; do
	for f in stf prompty prapti pdl promptfile dotprompt; do
		in=$dir/short$size.$f
		[ -s "$in" ] || go run ./bench/gen -f "$f" -shape short -size "$size" -o "$in"
		line="$f ${size}MB"
		to=stf
		[ $f != stf ] || to=prapti
		for cmd in parse messages check "convert -t $to"; do
			# shellcheck disable=SC2086 # cmd is words
			/usr/bin/time -o "$tmp" -f '%M %x' "$bin" $cmd -f "$f" "$in" >/dev/null 2>&1 || true
			read -r kb status < <(tail -1 "$tmp") || { kb=0 status=?; }
			cell=$((kb / 1024))
			[ "$status" = 0 ] || cell="$cell(exit $status)"
			line="$line $cell"
		done
		echo "$line"
	done
done
