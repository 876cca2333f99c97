// Times llm-msg-io's STF decoder (bundled by setup.sh from the upstream
// source) as goparse times ours: FILE RUNS prints the median seconds of
// RUNS decodes of FILE (after one that is not counted), and the message
// count.
import {readFileSync} from "node:fs";
import {createDecoder} from "./work/stf-decoder.mjs";

const [file, runs] = process.argv.slice(2);
const src = readFileSync(file, "utf8");
const decode = createDecoder();
const n = decode(src).messages.length;
const times = [];
for (let i = 0; i < Number(runs); i++) {
	const start = process.hrtime.bigint();
	decode(src);
	times.push(Number(process.hrtime.bigint() - start) / 1e9);
}
times.sort((a, b) => a - b);
console.log(`${times[Math.floor(times.length / 2)].toFixed(6)} ${n}`);
