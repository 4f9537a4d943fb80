#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora from the repo's own test programs.

Usage: make_seed_corpora.py --repo=ROOT --bin=BUILD/bin --out=DIR

DIR/<kind>/ for each kind a fuzz target reads:
  mlir      the .mlir test programs (tests/e2e, compiler/**/test, samples)
  vmasm     the .vmasm test programs (tests/vmasm, tests/tools)
  module    those assembled by kiln-as-module, and a few compiled .mlir ones
  npy       .npy files of each supported dtype written by numpy
  input     the --input values the tool tests pass
  flagfile  flagfiles of the run tools' flags
and DIR/<kind>-smoke/ with the 16 smallest of each, for the smoke runs.
Nothing here is committed: it is regenerated at build time.
"""
import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys

MAX_SEED_BYTES = 64 * 1024


def write_seed(out_dir, data):
    if isinstance(data, str):
        data = data.encode()
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(data)


def files(repo, patterns):
    found = []
    for pattern in patterns:
        found += sorted(glob.glob(os.path.join(repo, pattern), recursive=True))
    return [f for f in found if os.path.getsize(f) <= MAX_SEED_BYTES]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    kinds = ["mlir", "vmasm", "module", "npy", "input", "flagfile", "onnx",
             "pb"]
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    dirs = {k: os.path.join(args.out, k) for k in kinds}
    for d in dirs.values():
        os.makedirs(d)

    mlir = files(args.repo, ["tests/e2e/**/*.mlir", "compiler/**/test/**/*.mlir",
                             "samples/*.mlir"])
    for path in mlir:
        with open(path, "rb") as f:
            write_seed(dirs["mlir"], f.read())

    vmasm = files(args.repo, ["tests/vmasm/*.vmasm", "tests/tools/*.vmasm",
                              "runtime/**/*.vmasm"])
    for path in vmasm:
        with open(path, "rb") as f:
            write_seed(dirs["vmasm"], f.read())

    # Modules: every .vmasm seed assembled, and the small e2e programs
    # compiled (a few, to keep the build quick).
    tmp = os.path.join(args.out, "tmp.kmod")
    for path in vmasm:
        if subprocess.run([os.path.join(args.bin, "kiln-as-module"), path,
                           "-o", tmp], capture_output=True).returncode == 0:
            with open(tmp, "rb") as f:
                write_seed(dirs["module"], f.read())
    small = [p for p in files(args.repo, ["tests/e2e/**/*.mlir"])
             if os.path.getsize(p) < 3000][:24]
    for path in small:
        try:
            result = subprocess.run([os.path.join(args.bin, "kiln-compile"),
                                     "--iree-hal-target-backends=vmvx",
                                     path, "-o", tmp], capture_output=True,
                                    timeout=60)
        except subprocess.TimeoutExpired:
            continue
        if result.returncode == 0 and os.path.getsize(tmp) <= MAX_SEED_BYTES:
            with open(tmp, "rb") as f:
                write_seed(dirs["module"], f.read())
    if os.path.exists(tmp):
        os.remove(tmp)

    # .npy: each dtype the readers handle, odd shapes, both orders, and a
    # stream of two arrays (--input=@file reads arrays in turn).
    try:
        import io
        import numpy as np
        arrays = [np.arange(6, dtype=np.float32).reshape(2, 3),
                  np.array(3.5, dtype=np.float64),
                  np.zeros((0, 4), dtype=np.int8),
                  np.array([True, False]),
                  np.arange(4, dtype=np.uint16),
                  np.arange(4, dtype=np.int64).reshape(2, 2).T,
                  np.array([1 + 2j, 3 - 4j], dtype=np.complex64),
                  np.array([1.5, -2], dtype=np.float16),
                  np.arange(3, dtype=">i4")]
        for a in arrays:
            buffer = io.BytesIO()
            np.save(buffer, a)
            write_seed(dirs["npy"], buffer.getvalue())
        buffer = io.BytesIO()
        np.save(buffer, arrays[0])
        np.save(buffer, arrays[4])
        write_seed(dirs["npy"], buffer.getvalue())
    except ImportError:
        sys.exit("make_seed_corpora.py: numpy is missing "
                 "(scripts/install-deps.sh installs python3-numpy)")

    # --input values from the tool tests, and the forms they document.
    inputs = {"2x2xf32=1 2 3 4", "2x2xf32=[[1 2][3 4]]", "f32=-2",
              "4xi32=1,2,3,4", "5", "-7", "1.5", "2xcomplex<f32>=[1 2][3 -4]",
              "3xi1=true false 1", "2x0xf32", "bf16=1.5", "2xui8=255 0",
              "si64=-9223372036854775808", "f16=inf", "2xf64=nan -0"}
    for path in files(args.repo, ["tests/**/*.sh"]):
        with open(path, errors="replace") as f:
            for m in re.finditer(r"--input=([^\"' \\]+)", f.read()):
                if "@" not in m.group(1) and "$" not in m.group(1):
                    inputs.add(m.group(1))
    for value in sorted(inputs):
        write_seed(dirs["input"], value)

    # ONNX: the repo's sample models and, where Debian's libonnx-testdata is
    # installed (scripts/install-deps.sh), the smaller node-test models and
    # their TensorProto inputs and outputs (.pb), every 8th case to keep
    # the corpora small.
    for path in files(args.repo, ["samples/onnx/**/*.onnx"]):
        with open(path, "rb") as f:
            write_seed(dirs["onnx"], f.read())
    testdata = "/usr/share/libonnx-testdata/data/node"
    cases = sorted(os.listdir(testdata)) if os.path.isdir(testdata) else []
    for case in cases[::8]:
        model = os.path.join(testdata, case, "model.onnx")
        if os.path.isfile(model) and os.path.getsize(model) <= MAX_SEED_BYTES:
            with open(model, "rb") as f:
                write_seed(dirs["onnx"], f.read())
        for pb in sorted(glob.glob(os.path.join(testdata, case,
                                                "test_data_set_0", "*.pb"))):
            if os.path.getsize(pb) <= MAX_SEED_BYTES:
                with open(pb, "rb") as f:
                    write_seed(dirs["pb"], f.read())

    # Flagfiles: one flag a line, comments, each flag type.
    flagfiles = [
        "--device=local-sync\n--function=main\n--input=2xf32=1,2\n",
        "# comment\n// comment\n--print_max_element_count=8\n"
        "--function_timeout_ms=100\n--allocation_limit_mb=64\n",
        "--task_topology_group_count=2\n--output=-\n--module=-\n",
        "--expected_output=3xf32=1,2,3\n--input=f32=1\n--input=i32=2\n",
    ]
    for text in flagfiles:
        write_seed(dirs["flagfile"], text)

    # <kind>-smoke: the 16 smallest seeds, for the few-second ctest runs
    # (libFuzzer runs every seed before it mutates: 100 compiles alone take
    # longer than a smoke run should).
    for kind in kinds:
        smoke = os.path.join(args.out, kind + "-smoke")
        os.makedirs(smoke)
        seeds = sorted(os.listdir(dirs[kind]),
                       key=lambda n: (os.path.getsize(os.path.join(dirs[kind], n)), n))
        for name in seeds[:16]:
            shutil.copy(os.path.join(dirs[kind], name), smoke)


if __name__ == "__main__":
    main()
