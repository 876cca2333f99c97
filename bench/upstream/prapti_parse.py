"""Times Prapti's reader (parse_messages, from the upstream source that
setup.sh extracts) as goparse times ours: FILE RUNS prints the median
seconds of RUNS parses of FILE (after one that is not counted), and the
message count (upstream counts its implicit _head message)."""
import statistics
import sys
import time

sys.path.insert(0, "work/prapti")
from core.chat_markdown_parser import parse_messages  # noqa: E402

path, runs = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as f:
    text = f.read()


def parse():
    return parse_messages(text.splitlines(keepends=True), None)


n = len(parse())
times = []
for _ in range(runs):
    start = time.perf_counter()
    parse()
    times.append(time.perf_counter() - start)
print(f"{statistics.median(times):.6f} {n}")
