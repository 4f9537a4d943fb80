#!/usr/bin/env python3
"""Parameters kept outside the module (.irpa archives, safetensors files).

usage: parameters_test.py TOOLS_DIR SOURCE_DIR WORK_DIR CASE BACKEND

Cases:
  export   kiln-compile --iree-parameter-export moves the weights of
           matmul_bias.mlir into an archive; running with --parameters gives
           what the in-module version gives and what numpy computes; the
           --iree-parameter-splat archive gives zeros for the weights.
  named    named.mlir references #flow.parameter.named globals; the files are
           written here by hand (safetensors for scope "model", an .irpa for
           the empty scope) with random values, and the result is checked
           against numpy. kiln-benchmark-module takes --parameters too.
  errors   missing key, wrong size, truncated file, missing file, no
           --parameters at all: each fails with a message naming what is
           wrong.
"""
import json
import os
import struct
import subprocess
import sys

import numpy as np

TOOLS, SRC, WORK, CASE, BACKEND = sys.argv[1:6]


def tool(name):
    return os.path.join(TOOLS, name)


def run(args, expect_ok=True):
    p = subprocess.run(args, capture_output=True, text=True, timeout=240)
    if expect_ok and p.returncode != 0:
        sys.exit(f"FAILED: {' '.join(args)}\n{p.stdout}{p.stderr}")
    if not expect_ok and p.returncode == 0:
        sys.exit(f"FAILED: expected an error from {' '.join(args)}\n{p.stdout}")
    return p


def compile_module(src, out, *flags):
    run([tool("kiln-compile"), f"--target-backends={BACKEND}", "--iree-opt-level=O0",
         os.path.join(SRC, src), "-o", out, *flags])


def run_module(module, inputs, *flags):
    out = os.path.join(WORK, "out.npy")
    if os.path.exists(out):
        os.remove(out)
    args = [tool("kiln-run-module"), f"--module={module}", "--device=local-task",
            f"--output=@{out}", *flags]
    args += [f"--input=@{p}" for p in inputs]
    run(args)
    return np.load(out)


def save(name, array):
    path = os.path.join(WORK, name)
    np.save(path, array)
    return path


def write_safetensors(path, tensors):
    """The format by hand: u64 header length, JSON header, data."""
    header, data = {}, b""
    for name, array in tensors.items():
        raw = np.ascontiguousarray(array).tobytes()
        dtype = {np.float32: "F32", np.int32: "I32"}[array.dtype.type]
        header[name] = {"dtype": dtype, "shape": list(array.shape),
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)  # data 8-byte aligned, as writers do
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


def write_irpa(path, entries):
    """An IREE parameter archive (version 0) by hand: header, entry table,
    names, then 64-byte aligned data entries."""
    header_size, entry_size = 88, 76
    table_offset = 96
    table_length = len(entries) * 80  # 76 rounded up to 16
    names = b"".join(k.encode() for k, _ in entries)
    meta_offset = table_offset + table_length
    storage_offset = (meta_offset + len(names) + 63) // 64 * 64
    storage, table, name_at = b"", b"", 0
    for key, array in entries:
        raw = np.ascontiguousarray(array).tobytes()
        storage += b"\0" * (-len(storage) % 64)
        table += struct.pack("<QIQQQQQQ", entry_size, 2, 0, name_at, len(key),
                             0, 0, 64)
        table += struct.pack("<QQ", len(storage), len(raw)) + b"\0" * 4
        storage += raw
        name_at += len(key)
    head = struct.pack("<IHHQQQQ", 0x41505249, 0, 0, header_size, 0, 0,
                       len(entries))
    head += struct.pack("<6Q", table_offset, table_length, meta_offset,
                        len(names), storage_offset, len(storage))
    head += b"\0" * (table_offset - len(head))
    body = head + table + names
    body += b"\0" * (storage_offset - len(body))
    with open(path, "wb") as f:
        f.write(body + storage)


def expect_close(got, want, what):
    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5,
                                                  atol=1e-5):
        sys.exit(f"FAILED: {what}: got\n{got}\nwant\n{want}")


def case_export():
    x = np.array([[1, 0, 0], [0, 1, 1]], np.float32)
    w = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    b = np.array([0.5, -1.0], np.float32)
    want = x @ w + b  # [[1.5, 1], [8.5, 9]]
    xin = save("x.npy", x)
    inline = os.path.join(WORK, "inline.kmod")
    compile_module("matmul_bias.mlir", inline)
    expect_close(run_module(inline, [xin]), want, "in-module weights")
    # Minimum 16 bytes: w (24 bytes) is exported, b (8 bytes) stays.
    exported = os.path.join(WORK, "exported.kmod")
    archive = os.path.join(WORK, "weights.irpa")
    splat = os.path.join(WORK, "splat.irpa")
    compile_module("matmul_bias.mlir", exported,
                   f"--iree-parameter-export=model={archive}",
                   "--iree-parameter-export-minimum-size=16",
                   f"--iree-parameter-splat={splat}")
    dump = run([tool("kiln-dump-module"), exported]).stdout
    if 'parameter "model" "constant_0" 24' not in dump or dump.count(
            ": parameter") != 1:
        sys.exit(f"FAILED: expected one 24-byte parameter in\n{dump}")
    with open(exported, "rb") as f:
        if w.tobytes() in f.read():
            sys.exit("FAILED: w's bytes are still in the exported module")
    expect_close(run_module(exported, [xin], f"--parameters=model={archive}"),
                 want, "exported weights")
    # The splat archive: zeros for w, so only the bias is left.
    expect_close(run_module(exported, [xin], f"--parameters=model={splat}"),
                 np.broadcast_to(b, (2, 2)), "splat weights")
    # The archive reads back as an independent .irpa reader sees it: entry
    # data equals w's bytes.
    with open(archive, "rb") as f:
        blob = f.read()
    if w.tobytes() not in blob:
        sys.exit("FAILED: w's bytes are not in the archive")


def named_files(rng):
    w = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    st = os.path.join(WORK, "model.safetensors")
    write_safetensors(st, {"w": w, "unused": np.arange(5, dtype=np.int32)})
    irpa = os.path.join(WORK, "bias.irpa")
    write_irpa(irpa, [("other", np.zeros(7, np.float32)), ("b", b)])
    return w, b, st, irpa


def case_named():
    rng = np.random.default_rng(7)
    w, b, st, irpa = named_files(rng)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    module = os.path.join(WORK, "named.kmod")
    compile_module("named.mlir", module)
    xin = save("x.npy", x)
    got = run_module(module, [xin], f"--parameters=model={st}",
                     f"--parameters={irpa}")
    expect_close(got, x @ w + b, "named parameters")
    # kiln-check-module takes --parameters too (w @ w computed by hand in
    # named_check.mlir).
    check = os.path.join(WORK, "named_check.kmod")
    compile_module("named_check.mlir", check)
    small = os.path.join(WORK, "small.safetensors")
    write_safetensors(small, {"w": np.array([[1, 2], [3, 4]], np.float32)})
    run([tool("kiln-check-module"), f"--module={check}",
         f"--parameters=model={small}"])
    write_safetensors(small, {"w": np.array([[1, 2], [3, 5]], np.float32)})
    p = run([tool("kiln-check-module"), f"--module={check}",
             f"--parameters=model={small}"], expect_ok=False)
    if "w_squared" not in p.stdout + p.stderr:
        sys.exit(f"FAILED: other weights should fail the check:\n{p.stdout}")
    # The benchmark tool shares the run tools' flags. The ASan build has no
    # benchmark tool (Google Benchmark is not instrumented); the main
    # build's run of this case checks it.
    if not os.path.exists(tool("kiln-benchmark-module")):
        print("kiln-benchmark-module is not built here; its case runs in the "
              "main build")
        return
    p = run([tool("kiln-benchmark-module"), f"--module={module}",
             "--device=local-sync", "--function=main", f"--parameters=model={st}",
             f"--parameters={irpa}", f"--input=@{xin}",
             "--benchmark_min_time=1x"])
    if "BM_main" not in p.stdout + p.stderr:
        sys.exit(f"FAILED: no benchmark ran:\n{p.stdout}{p.stderr}")


def expect_error(args, *needles):
    p = run(args, expect_ok=False)
    text = p.stdout + p.stderr
    for needle in needles:
        if needle not in text:
            sys.exit(f"FAILED: '{needle}' not in the error of "
                     f"{' '.join(args)}:\n{text}")
    if "Traceback" in text or p.returncode < 0:
        sys.exit(f"FAILED: crashed:\n{text}")


def case_errors():
    rng = np.random.default_rng(1)
    w, b, st, irpa = named_files(rng)
    module = os.path.join(WORK, "named.kmod")
    compile_module("named.mlir", module)
    xin = save("x.npy", np.ones((2, 4), np.float32))
    base = [tool("kiln-run-module"), f"--module={module}", f"--input=@{xin}"]
    # No --parameters at all.
    expect_error(base, "needs parameter 'model'::'w' (48 bytes)",
                 "--parameters=model=FILE")
    # Missing key: b is in the empty scope, not in "model".
    expect_error(base + [f"--parameters=model={st}", f"--parameters=model={irpa}"],
                 "'b' not found")
    # Wrong size: w of 4x2.
    wrong = os.path.join(WORK, "wrong.safetensors")
    write_safetensors(wrong, {"w": np.zeros((4, 2), np.float32)})
    expect_error(base + [f"--parameters=model={wrong}", f"--parameters={irpa}"],
                 "'model'::'w' has 32 bytes", "compiled for 48 bytes")
    # Truncated files (each cut names the file).
    for src, cut in ((st, 40), (st, os.path.getsize(st) - 3), (irpa, 60),
                     (irpa, os.path.getsize(irpa) - 1)):
        path = os.path.join(WORK, "cut" + os.path.splitext(src)[1])
        with open(src, "rb") as f:
            data = f.read()[:cut]
        with open(path, "wb") as f:
            f.write(data)
        expect_error(base + [f"--parameters=model={path}"], path)
    expect_error(base + [f"--parameters=model={os.path.join(WORK, 'none.irpa')}"],
                 "cannot open parameter file", "none.irpa")


def main():
    os.makedirs(WORK, exist_ok=True)
    {"export": case_export, "named": case_named, "errors": case_errors}[CASE]()
    print(f"PASSED {CASE} {BACKEND}")


if __name__ == "__main__":
    main()
