#!/bin/bash
# run.sh [SIZE_MB] [RUNS]: makes one input per shape and format with
# bench/gen, parses each with promptfmt (goparse) and with the upstream
# parser (after setup.sh), and prints the median seconds and the ratio,
# in one session on the same files. Defaults: 8 MB, 7 runs.
set -euo pipefail
cd "$(dirname "$0")"
size=${1:-8} runs=${2:-7}
py=${PYTHON:-python3}
mkdir -p work/in
go build -o work/goparse ./goparse
printf '%-8s %-6s %-10s %8s %8s %10s %10s %8s\n' format shape upstream MB 'msgs' 'go s' 'up s' 'ratio'
for shape in short long; do
	for f in stf prompty prapti; do
		in=work/in/$shape$size.$f
		[ -s "$in" ] || go run ../gen -f "$f" -shape "$shape" -size "$size" -o "$in"
		case $f in
		stf) who="llm-msg-io (Node $(node --version))" up=(node stf.mjs) ;;
		prompty) who="Prompty (Python $($py -c 'import platform; print(platform.python_version())'))" up=("$py" prompty_parse.py) ;;
		prapti) who="Prapti (Python $($py -c 'import platform; print(platform.python_version())'))" up=("$py" prapti_parse.py) ;;
		esac
		read -r gos gon < <(work/goparse "$f" "$in" "$runs")
		read -r ups upn < <("${up[@]}" "$in" "$runs")
		mb=$(awk -v b="$(stat -c %s "$in")" 'BEGIN { printf "%.1f", b / 1048576 }')
		printf '%-8s %-6s %-10s %8s %8s %10s %10s %8s   %s\n' "$f" "$shape" "${who%% *}" "$mb" "$gon/$upn" "$gos" "$ups" \
			"$(awk -v a="$ups" -v b="$gos" 'BEGIN { printf "%.1fx", a / b }')" "$who"
	done
done
