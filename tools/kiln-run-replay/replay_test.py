#!/usr/bin/env python3
"""Replay tests: kiln-benchmark-module --device_replay_output records a run
of samples/mlp.mlir; kiln-run-replay must return the bytes kiln-run-module
returns for the same input, for every file policy and validation; damaged
files give clean errors; kiln-dump-replay and kiln-benchmark-replay output.

Usage: replay_test.py TOOLS_DIR SOURCE_DIR WORK_DIR CASE
"""
import json
import os
import random
import struct
import subprocess
import sys
import zlib

TOOLS, SOURCE, WORK, CASE = sys.argv[1:5]
INPUT = "--input=4x8xf32=" + " ".join(
    str(round((i * 7 % 13) * 0.25 - 1.5, 2)) for i in range(32))


def tool(name):
    return os.path.join(TOOLS, name)


def run(args, expect_rc=0, timeout=240):
    proc = subprocess.run(args, capture_output=True, text=True,
                          errors="replace", timeout=timeout)
    if expect_rc is not None and proc.returncode != expect_rc:
        sys.exit("FAIL: %s\nrc=%d\nstdout:\n%s\nstderr:\n%s" %
                 (" ".join(args), proc.returncode, proc.stdout, proc.stderr))
    return proc


def check(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)


def compile_mlp():
    module = os.path.join(WORK, "mlp.kmod")
    run([tool("kiln-compile"), os.path.join(SOURCE, "samples", "mlp.mlir"),
         "-o", module])
    return module


def record(module, name, *flags, device="local-task"):
    path = os.path.join(WORK, name)
    run([tool("kiln-benchmark-module"), "--module=" + module,
         "--function=mlp", INPUT, "--device=" + device,
         "--device_replay_output=" + path, "--benchmark_min_time=0.001"] +
        list(flags))
    return path


def reference_bytes(module):
    out = os.path.join(WORK, "reference.bin")
    run([tool("kiln-run-module"), "--module=" + module, "--function=mlp",
         INPUT, "--output=@" + out])
    with open(out, "rb") as f:
        data = f.read()
    check(len(data) == 4 * 4 * 4, "reference output has %d bytes" % len(data))
    return data


def replay_bytes(replay, device="local-task"):
    out = os.path.join(WORK, "replayed.bin")
    if os.path.exists(out):
        os.remove(out)
    run([tool("kiln-run-replay"), replay, "--device=" + device,
         "--output=@" + out])
    with open(out, "rb") as f:
        return f.read()


def case_round_trip():
    module = compile_mlp()
    expected = reference_bytes(module)
    for recorded_on in ("local-sync", "local-task"):
        replay = record(module, "rt_%s.krpl" % recorded_on, device=recorded_on)
        for device in ("local-sync", "local-task"):
            got = replay_bytes(replay, device)
            check(got == expected,
                  "replay recorded on %s, run on %s: bytes differ" %
                  (recorded_on, device))
    # Printed like kiln-run-module prints results.
    out = run([tool("kiln-run-replay"), replay]).stdout
    check(out.startswith("result[0]: hal.buffer_view\n4x4xf32="), out)


def case_policies():
    module = compile_mlp()
    expected = reference_bytes(module)
    for policy in ("reference", "capture-ranges", "capture-all"):
        for validation in ("identity", "digest"):
            replay = record(module, "p_%s_%s.krpl" % (policy, validation),
                            "--device_replay_file_policy=" + policy,
                            "--device_replay_file_validation=" + validation)
            check(replay_bytes(replay) == expected,
                  "%s/%s: bytes differ" % (policy, validation))
            dump = run([tool("kiln-dump-replay"), replay]).stdout
            has_file = "contents file" in dump
            check(has_file == (policy == "reference"),
                  "%s: file reference expected only for 'reference':\n%s" %
                  (policy, dump))
            if policy == "reference":
                check(("validation " + validation) in dump, dump)
            if policy == "capture-ranges":
                check("contents ranges" in dump, dump)
    # 'fail' refuses rodata mapped from the module file.
    proc = run([tool("kiln-benchmark-module"), "--module=" + module,
                "--function=mlp", INPUT,
                "--device_replay_output=" + os.path.join(WORK, "f.krpl"),
                "--device_replay_file_policy=fail",
                "--benchmark_min_time=0.001"], expect_rc=1)
    check("file policy is 'fail'" in proc.stdout + proc.stderr, proc.stderr)
    check(not os.path.exists(os.path.join(WORK, "f.krpl")),
          "a failed recording wrote a file")
    # Unknown policy / validation names and --dispatch_statistics.
    for flag in ("--device_replay_file_policy=sometimes",
                 "--device_replay_file_validation=hope",
                 "--dispatch_statistics"):
        proc = run([tool("kiln-benchmark-module"), "--module=" + module,
                    "--function=mlp", INPUT,
                    "--device_replay_output=" + os.path.join(WORK, "x.krpl"),
                    flag], expect_rc=None)
        check(proc.returncode != 0 and "error" in proc.stderr, proc.stderr)
    # A referenced file that changed is refused (identity and digest).
    for validation in ("identity", "digest"):
        copy = os.path.join(WORK, "copy_%s.kmod" % validation)
        with open(module, "rb") as f:
            data = f.read()
        with open(copy, "wb") as f:
            f.write(data)
        replay = record(copy, "changed_%s.krpl" % validation,
                        "--device_replay_file_validation=" + validation)
        check(replay_bytes(replay) == expected, "copy: bytes differ")
        # Zero the whole rodata-bearing middle of the module: contents change.
        changed = bytearray(data)
        for i in range(64, len(changed) - 64):
            changed[i] = 0
        with open(copy, "wb") as f:
            f.write(bytes(changed))
        os.utime(copy, ns=(1, 1))
        proc = run([tool("kiln-run-replay"), replay], expect_rc=None)
        check(proc.returncode != 0 and "changed since the replay was recorded"
              in proc.stderr, "%s: %s" % (validation, proc.stderr))


def fix_crc(data):
    data = bytearray(data)
    data[24:28] = b"\0\0\0\0"
    data[24:28] = struct.pack("<I", zlib.crc32(bytes(data)) & 0xffffffff)
    return bytes(data)


def case_corrupt():
    module = compile_mlp()
    replay = record(module, "c.krpl", "--device_replay_file_policy=capture-all")
    with open(replay, "rb") as f:
        good = f.read()
    bad = os.path.join(WORK, "bad.krpl")

    def expect_clean_error(data, what, needle=None):
        with open(bad, "wb") as f:
            f.write(data)
        for args in ([tool("kiln-dump-replay"), bad],
                     [tool("kiln-run-replay"), bad]):
            try:
                proc = run(args, expect_rc=None, timeout=20)
            except subprocess.TimeoutExpired:
                # A structurally valid file may still ask for a huge amount
                # of work (a flipped workgroup count); only the replay may
                # take that long, never the loader.
                check(args[0].endswith("kiln-run-replay"),
                      "%s: %s hung" % (what, args[0]))
                continue
            check(proc.returncode in (0, 1) or proc.returncode > 1 and
                  proc.returncode < 128 and "error" in proc.stderr,
                  "%s: %s crashed (rc %d): %s" %
                  (what, args[0], proc.returncode, proc.stderr))
            if needle:
                check(proc.returncode != 0 and needle in proc.stderr,
                      "%s: expected '%s' in: %s" % (what, needle, proc.stderr))

    expect_clean_error(good[:len(good) // 2], "truncated", "truncated")
    expect_clean_error(good[:40], "short", "not a kiln replay file")
    expect_clean_error(b"NOTRPL\0\0" + good[8:], "magic", "bad magic")
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x5A
    expect_clean_error(bytes(flipped), "flipped", "CRC-32 mismatch")
    version = bytearray(good)
    version[8:10] = struct.pack("<H", 7)
    expect_clean_error(fix_crc(version), "version", "version 7.")
    # Structural checks: flip bytes everywhere, fix the CRC so that the
    # loader's structural validation (not the checksum) must catch them.
    rng = random.Random(1234)
    for trial in range(150):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(64, len(data))
            data[i] ^= 1 << rng.randrange(8) if rng.random() < 0.5 else 0xFF
        expect_clean_error(fix_crc(data), "flip trial %d" % trial)


def case_dump():
    module = compile_mlp()
    replay = record(module, "d.krpl")
    out = run([tool("kiln-dump-replay"), replay]).stdout
    lines = out.splitlines()
    check(lines[0].startswith("kiln replay, format 1.1, "), lines[0])
    check("recorded on 'local-task'" in lines[0], lines[0])
    check(any(l.startswith("EXECUTABLE 0: format '") for l in lines), out)
    check(any(l.startswith("FILE 0: '") and "mlp.kmod'" in l for l in lines),
          out)
    check(any(l.startswith("COMMAND_BUFFER 0: reusable") for l in lines), out)
    check(any("dispatch executable" in l and "workgroups" in l for l in lines),
          out)
    check(any(l.startswith("EXECUTE command buffer 0 bindings [buffer")
              for l in lines), out)
    check(any(l.startswith("RESULT buffer") and l.endswith("4x4xf32")
              for l in lines), out)
    scopes = sum(1 for l in lines if l == "SCOPE_BEGIN 'execute'")
    ends = sum(1 for l in lines if l == "SCOPE_END")
    check(scopes > 0 and scopes == ends, "scopes %d ends %d" % (scopes, ends))
    check(lines[-1].startswith("summary: ") and
          ("%d scopes" % scopes) in lines[-1], lines[-1])
    proc = run([tool("kiln-dump-replay"), os.path.join(WORK, "none.krpl")],
               expect_rc=None)
    check(proc.returncode != 0 and "cannot open replay file" in proc.stderr,
          proc.stderr)


def case_benchmark():
    module = compile_mlp()
    replay = record(module, "b.krpl")
    dump = run([tool("kiln-dump-replay"), replay]).stdout
    scopes = sum(1 for l in dump.splitlines() if l == "SCOPE_BEGIN 'execute'")
    for scope, name in (("execute", "BM_replay/execute/process_time/"
                                    "manual_time"),
                        ("all", "BM_replay/all/process_time/real_time")):
        out = run([tool("kiln-benchmark-replay"), replay,
                   "--replay_scope=" + scope, "--benchmark_min_time=0.01",
                   "--benchmark_format=json"]).stdout
        rows = json.loads(out)["benchmarks"]
        check(len(rows) == 1 and rows[0]["name"] == name, out)
        check(rows[0]["iterations"] > 0 and rows[0]["real_time"] > 0, out)
        if scope == "execute":
            check(rows[0]["scopes_per_replay"] == scopes, out)
            check(rows[0]["iterations"] % scopes == 0, out)
    proc = run([tool("kiln-benchmark-replay"), replay,
                "--replay_scope=sometimes"], expect_rc=None)
    check(proc.returncode != 0 and "--replay_scope" in proc.stderr,
          proc.stderr)


os.makedirs(WORK, exist_ok=True)
globals()["case_" + CASE]()
print("PASS", CASE)
