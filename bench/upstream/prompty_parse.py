"""Times Prompty's Python chat parser (from the upstream source that
setup.sh extracts) as goparse times ours: FILE RUNS prints the median
seconds of RUNS parses of FILE (after one that is not counted), and the
message count. The parser class is called directly (_parse skips the
tracing wrapper; the pipeline's discovery needs an installed package)."""
import statistics
import sys
import time

sys.path.insert(0, "work/prompty")
sys.path.insert(0, "work/stubs")
from prompty.model import Agent  # noqa: E402
from prompty.parsers.prompty import PromptyChatParser  # noqa: E402

path, runs = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as f:
    text = f.read()
parser, agent = PromptyChatParser(), Agent(name="bench")
n = len(parser._parse(agent, text))
times = []
for _ in range(runs):
    start = time.perf_counter()
    parser._parse(agent, text)
    times.append(time.perf_counter() - start)
print(f"{statistics.median(times):.6f} {n}")
