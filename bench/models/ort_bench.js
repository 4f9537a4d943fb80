// Runs one ONNX model with ONNX Runtime (onnxruntime-node) and prints one
// JSON line: session creation time, per-run latencies and per-run process
// CPU time (all threads) in milliseconds.
//
// Usage: node ort_bench.js MODEL.onnx INPUT.npy THREADS RUNS [OUTPUT.npy]
//   THREADS: intra-op threads (inter-op 1, sequential execution, all graph
//   optimizations). One warm-up run precedes the RUNS timed ones. With
//   OUTPUT.npy the first output of the last run is written there (f32).
// NODE_PATH must name the node_modules folder onnxruntime-node is in.
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(path + ': not .npy');
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const hstart = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', hstart, hstart + hlen);
  if (!/'descr':\s*'<f4'/.test(header) || /'fortran_order':\s*True/.test(header)) {
    throw new Error(path + ': only little-endian f32 C-order arrays');
  }
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1]
      .split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  const start = hstart + hlen;
  const data = new Float32Array(buf.buffer.slice(buf.byteOffset + start,
                                                 buf.byteOffset + buf.length));
  return {shape, data};
}

function writeNpy(path, shape, data) {
  const dims = shape.length === 1 ? shape[0] + ',' : shape.join(', ');
  let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + '), }';
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  fs.writeFileSync(path, Buffer.concat([pre, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

async function main() {
  const [model, input, threadsArg, runsArg, output] = process.argv.slice(2);
  const threads = Number(threadsArg);
  const runs = Number(runsArg);
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
  });
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const x = readNpy(input);
  const feeds = {};
  feeds[session.inputNames[0]] = new ort.Tensor('float32', x.data, x.shape);
  let result = await session.run(feeds);  // warm-up
  const times = [];
  const cpu = [];
  for (let i = 0; i < runs; ++i) {
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    result = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    const dc = process.cpuUsage(c);
    cpu.push((dc.user + dc.system) / 1e3);
  }
  if (output) {
    const y = result[session.outputNames[0]];
    writeNpy(output, y.dims, y.data);
  }
  console.log(JSON.stringify({load_ms: loadMs, times_ms: times, cpu_ms: cpu,
                              version: ort.env.versions ? ort.env.versions.common : undefined}));
}

main().catch((e) => {
  console.error(String(e && e.stack || e));
  process.exit(1);
});
