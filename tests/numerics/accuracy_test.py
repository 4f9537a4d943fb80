#!/usr/bin/env python3
"""Accuracy of kiln's transcendental functions against a float64 reference.

Every function runs end to end through the path users run: one generated
program (tests/numerics: one function per op and element type) is compiled
by kiln-compile for vmvx and each function is run by kiln-run-module with its
inputs from .npy files (--input=@x.npy) and its result written to .npy
(--output=@y.npy). The reference is numpy (Debian's python3-numpy) in float64
on the same inputs, rounded here to the target format by our own rounding
(checked against numpy's float64->float32 cast). The error of a result is
|got - ref| in units of the ulp of the correctly rounded reference (an
infinite result where the reference is finite counts as 2^(emax+1)).

Inputs: f32: every STRIDE-th bit pattern of all 2^32 (both signs, every
exponent, NaNs included), 64 neighbours of each boundary value (0 and the
subnormals, +-1, overflow/underflow thresholds, pi/2, ...), the special
values and 65536 random patterns; f16 and bf16: all 65536 bit patterns.
Binary ops (atan2, pow) use a grid of such values plus a focused grid where
pow neither overflows nor underflows.

Checks (the test fails on any):
  * the worst ulp error of a function exceeds its bound in BOUNDS
    (tests/numerics/accuracy_bounds.json);
  * a special-value result is wrong: where the float64 reference is exactly
    NaN, +-inf or +-0 the result must be exactly that (NaN for NaN, the same
    infinity, a zero of the same sign), and NaN only where the reference is
    NaN;
  * a result is not a value of the element type.

Usage: accuracy_test.py BIN_DIR [--bounds FILE] [--stride N] [--grid N]
       [--device D] [--only f32/exp,...] [--write-bounds] [--markdown]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


#===----------------------------------------------------------------------===#
# Formats and rounding
#===----------------------------------------------------------------------===#

class Fmt:
    """A binary floating-point format: p significand bits (with the implicit
    one), qmin the exponent of the smallest subnormal, emax the largest
    exponent."""

    def __init__(self, name, p, qmin, emax):
        self.name, self.p, self.qmin, self.emax = name, p, qmin, emax
        self.max = (2.0 - 2.0**(1 - p)) * 2.0**emax


FORMATS = {
    "f32": Fmt("f32", 24, -149, 127),
    "f16": Fmt("f16", 11, -24, 15),
    "bf16": Fmt("bf16", 8, -133, 127),
}


def ulp_exponent(a, fmt):
    """Exponent of the ulp of finite |values| a (>= 0) in fmt."""
    _, e = np.frexp(np.minimum(a, fmt.max))
    return np.maximum(e - fmt.p, fmt.qmin)


def round_to(ref, fmt):
    """float64 -> nearest value of fmt (ties to even), as float64."""
    a = np.abs(ref)
    fin = np.isfinite(a)
    a0 = np.where(fin, a, 0.0)
    q = ulp_exponent(a0, fmt)
    r = np.ldexp(np.rint(np.ldexp(a0, -q)), q)
    r = np.where(r > fmt.max, np.inf, r)
    r = np.where(fin, r, a)
    return np.copysign(r, ref)


def error_ulps(got, ref, fmt):
    """Per element error of got (float64 holding fmt values) against the
    float64 reference, in ulps of the correctly rounded reference."""
    cr = round_to(ref, fmt)
    ca = np.abs(cr)
    ulp = np.ldexp(1.0, ulp_exponent(np.where(np.isfinite(ca), ca, fmt.max),
                                     fmt))
    # Infinities count as 2^(emax+1), the next binade after the largest
    # finite value; an infinite result where the rounded reference is the
    # same infinity is exact.
    big = 2.0**(fmt.emax + 1)
    g = np.where(np.isinf(got), np.copysign(big, got), got)
    with np.errstate(invalid="ignore"):
        err = np.abs(g - np.clip(ref, -big, big)) / ulp
    err = np.where(np.isinf(cr) & (got == cr), 0.0, err)
    gn, rn = np.isnan(got), np.isnan(ref)
    err = np.where(np.isinf(ref), np.where(got == ref, 0.0, np.inf), err)
    err = np.where(gn | rn, np.where(gn & rn, 0.0, np.inf), err)
    return err


def special_mismatch(got, ref):
    """Where the reference is exactly NaN/inf/0 the result must be exactly
    that (zeros with their sign); NaN results only where ref is NaN."""
    rn, gn = np.isnan(ref), np.isnan(got)
    bad = rn != gn
    inf = np.isinf(ref)
    bad |= inf & (got != ref)
    zero = ref == 0
    bad |= zero & ((got != 0) | (np.signbit(got) != np.signbit(ref)))
    return bad


#===----------------------------------------------------------------------===#
# Functions: the op each runs and its float64 reference
#===----------------------------------------------------------------------===#

def _logistic(x):
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _round_afz(x):
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


def _erf(x):
    return np.frompyfunc(math.erf, 1, 1)(x).astype(np.float64)


def _erfc(x):
    return np.frompyfunc(math.erfc, 1, 1)(x).astype(np.float64)


# name -> (arity, op template, reference). Templates: {x} {y} operands,
# {t} the tensor type.
FUNCTIONS = {
    "exp": (1, "stablehlo.exponential {x} : {t}", np.exp),
    "exp2": (1, "math.exp2 {x} : {t}", np.exp2),
    "expm1": (1, "stablehlo.exponential_minus_one {x} : {t}", np.expm1),
    "log": (1, "stablehlo.log {x} : {t}", np.log),
    "log2": (1, "math.log2 {x} : {t}", np.log2),
    "log10": (1, "math.log10 {x} : {t}", np.log10),
    "log1p": (1, "stablehlo.log_plus_one {x} : {t}", np.log1p),
    "sqrt": (1, "stablehlo.sqrt {x} : {t}", np.sqrt),
    "rsqrt": (1, "stablehlo.rsqrt {x} : {t}", lambda x: 1.0 / np.sqrt(x)),
    "cbrt": (1, "stablehlo.cbrt {x} : {t}", np.cbrt),
    "sin": (1, "stablehlo.sine {x} : {t}", np.sin),
    "cos": (1, "stablehlo.cosine {x} : {t}", np.cos),
    "tan": (1, "stablehlo.tan {x} : {t}", np.tan),
    "tanh": (1, "stablehlo.tanh {x} : {t}", np.tanh),
    "atan": (1, "math.atan {x} : {t}", np.arctan),
    "asin": (1, "math.asin {x} : {t}", np.arcsin),
    "acos": (1, "math.acos {x} : {t}", np.arccos),
    "sinh": (1, "math.sinh {x} : {t}", np.sinh),
    "cosh": (1, "math.cosh {x} : {t}", np.cosh),
    "logistic": (1, "stablehlo.logistic {x} : {t}", _logistic),
    "sigmoid_tosa": (1, "tosa.sigmoid {x} : ({t}) -> {t}", _logistic),
    "erf": (1, "math.erf {x} : {t}", _erf),
    "erfc": (1, "math.erfc {x} : {t}", _erfc),
    "asinh": (1, "math.asinh {x} : {t}", np.arcsinh),
    "acosh": (1, "math.acosh {x} : {t}", np.arccosh),
    "atanh": (1, "math.atanh {x} : {t}", np.arctanh),
    "floor": (1, "stablehlo.floor {x} : {t}", np.floor),
    "ceil": (1, "stablehlo.ceil {x} : {t}", np.ceil),
    "round_afz": (1, "stablehlo.round_nearest_afz {x} : {t}", _round_afz),
    "round_even": (1, "stablehlo.round_nearest_even {x} : {t}", np.rint),
    "atan2": (2, "stablehlo.atan2 {x}, {y} : {t}", np.arctan2),
    "pow": (2, "stablehlo.power {x}, {y} : {t}", np.power),
}


def symbol(name, ty):
    return "%s_%s" % (name, ty)


#===----------------------------------------------------------------------===#
# Inputs
#===----------------------------------------------------------------------===#

def f32_bits(values):
    return np.asarray(values, dtype=np.float32).view(np.uint32)


# Values next to which functions change behaviour: 64 f32 neighbours of each.
BOUNDARIES = [
    0.0, 1.0, -1.0, 0.5, 2.0, 1.1754944e-38, 3.4028235e38,
    math.pi / 2, math.pi, 3 * math.pi / 2, 1e-4, 1e-8,
    88.72284, 88.72283, -87.33654, -88.72284, -103.27893, -103.97208,
    89.41599, 128.0, -126.0, -149.0, -150.0, 9.010913, 3.9192059, 38.53184,
    -45.0, -16.0, 17.0, 1e30, 1e-30,
]


def f32_unary_inputs(stride, seed=1):
    sweep = np.arange(stride // 2, 2**32, stride, dtype=np.uint64)
    near = []
    for b in BOUNDARIES:
        c = int(f32_bits([b])[0])
        for s in (c, c ^ 0x80000000):
            near.append(np.arange(max(s - 32, s & 0x80000000),
                                  min(s + 33, (s & 0x80000000) + 0x80000000),
                                  dtype=np.uint64))
    specials = f32_bits([0.0, -0.0, np.inf, -np.inf, np.nan, 1.4e-45,
                         -1.4e-45, 1.1754942e-38, -1.1754942e-38])
    rng = np.random.default_rng(seed)
    rand = rng.integers(0, 2**32, 65536, dtype=np.uint64)
    bits = np.concatenate(near + [specials.astype(np.uint64), sweep, rand])
    return bits.astype(np.uint32).view(np.float32)


def all16(ty):
    """Every value of a 16-bit format, as f32 (exact)."""
    b = np.arange(65536, dtype=np.uint32)
    if ty == "f16":
        return b.astype(np.uint16).view(np.float16).astype(np.float32)
    return (b << 16).view(np.float32)


def binary_inputs(ty, grid):
    """(x, y): a grid of values over the whole range plus a focused grid of
    moderate values (pow neither overflows nor underflows there)."""
    fmt = FORMATS[ty]
    if ty == "f32":
        step = 2**32 // grid
        base = np.arange(step // 2, 2**32, step, dtype=np.uint64).astype(
            np.uint32).view(np.float32)
    else:
        a = all16(ty)
        base = a[np.arange(0, 65536, max(1, 65536 // grid))]
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5,
                        2.0, -2.0, 3.0, -3.0, fmt.max, -fmt.max,
                        2.0**fmt.qmin, -2.0**fmt.qmin], dtype=np.float32)
    s = np.concatenate([special, base])
    x1, y1 = np.meshgrid(s, s)
    m = max(16, int(grid * 0.6))
    rng = np.random.default_rng(2)
    fx = np.concatenate([rng.uniform(0, 8, m), -np.arange(1, 9)])
    fy = np.concatenate([rng.uniform(-30, 30, m // 2),
                         np.arange(-12, 13), np.arange(-12, 13) + 0.5])
    fx, fy = (round_to(v, fmt).astype(np.float32) for v in (fx, fy))
    x2, y2 = np.meshgrid(fx, fy)
    return (np.concatenate([x1.ravel(), x2.ravel()]),
            np.concatenate([y1.ravel(), y2.ravel()]))


#===----------------------------------------------------------------------===#
# Program
#===----------------------------------------------------------------------===#

def mlir_function(name, ty, n):
    arity, template = FUNCTIONS[name][0], FUNCTIONS[name][1]
    io = "tensor<%dxf32>" % n
    t = "tensor<%dx%s>" % (n, ty)
    args = ", ".join("%%a%d: %s" % (i, io) for i in range(arity))
    lines = ["func.func @%s(%s) -> %s {" % (symbol(name, ty), args, io)]
    ops = []
    for i in range(arity):
        if ty == "f32":
            ops.append("%%a%d" % i)
        else:
            lines.append("  %%c%d = stablehlo.convert %%a%d : (%s) -> %s" %
                         (i, i, io, t))
            ops.append("%%c%d" % i)
    body = template.format(x=ops[0], y=ops[-1], t=t)
    lines.append("  %%r = %s" % body)
    res = "%r"
    if ty != "f32":
        lines.append("  %%o = stablehlo.convert %%r : (%s) -> %s" % (t, io))
        res = "%o"
    lines.append("  return %s : %s" % (res, io))
    lines.append("}")
    return "\n".join(lines)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0:
        sys.exit("accuracy_test: command failed (%d): %s\n%s" %
                 (p.returncode, " ".join(cmd), p.stdout))


#===----------------------------------------------------------------------===#
# Measurement
#===----------------------------------------------------------------------===#

def fmt_value(v):
    if isinstance(v, np.float32) and np.isnan(v):
        return "nan(0x%08x)" % int(np.asarray(v).view(np.uint32))
    v = float(v)
    if math.isnan(v) or math.isinf(v) or v == 0:
        return repr(v)
    return "%.9g" % v


def measure(key, ty, inputs, got, ref_fn):
    fmt = FORMATS[ty]
    with np.errstate(all="ignore"):
        xs = [x.astype(np.float64) for x in inputs]
        ref = np.asarray(ref_fn(*xs), dtype=np.float64)
        g = got.astype(np.float64)
    # A signaling NaN operand gives NaN (IEEE 754 7.2), even where a quiet
    # NaN would not (pow(sNaN, 0)); float64 conversion has quieted it. (f16
    # and bf16 operands come from a conversion, which quiets them.)
    for x in inputs if ty == "f32" else ():
        b = x.view(np.uint32)
        snan = ((b & 0x7f800000) == 0x7f800000) & ((b & 0x7fffff) != 0) & (
            (b & 0x400000) == 0)
        ref = np.where(snan, np.nan, ref)
    problems = []
    not_fmt = ~np.isnan(g) & (round_to(g, fmt) != g)
    if not_fmt.any():
        i = int(np.argmax(not_fmt))
        problems.append("%d results are not %s values (first: %r)" %
                        (int(not_fmt.sum()), ty, float(g[i])))
    err = error_ulps(g, ref, fmt)
    bad = special_mismatch(g, ref)
    for i in np.flatnonzero(bad)[:5]:
        problems.append("special value: %s(%s) = %s, expected %s" % (
            key, ", ".join(fmt_value(x[i]) for x in inputs), fmt_value(g[i]),
            fmt_value(ref[i])))
    if bad.sum() > 5:
        problems.append("... %d special-value mismatches in all" %
                        int(bad.sum()))
    e = np.where(bad, 0.0, err)
    i = int(np.argmax(e))
    worst = float(e[i])
    return {
        "max_ulp": worst,
        "at": [fmt_value(x[i]) for x in inputs],
        "got": fmt_value(g[i]),
        "ref": "%.17g" % ref[i],
        "points": int(g.size),
        "problems": problems,
    }


def ceil_bound(v):
    """A recorded bound: the measured error rounded up to 3 significant
    digits (0 stays 0)."""
    if v == 0:
        return 0.0
    d = 10**(math.floor(math.log10(v)) - 2)
    return float("%.3g" % (math.ceil(v / d - 1e-9) * d))


def check_doc(path, bounds):
    """The table of worst errors in the docs must show the recorded bounds:
    rows `| name | `op` | f32 | f16 | bf16 | ...`."""
    problems = []
    seen = set()
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 5 or cells[0] not in FUNCTIONS:
                continue
            seen.add(cells[0])
            for ty, cell in zip(("f32", "f16", "bf16"), cells[2:5]):
                b = bounds.get("%s/%s" % (ty, cells[0]))
                if b is None or cell != "%.3g" % b:
                    problems.append("%s: %s/%s is %s, recorded bound %s" %
                                    (path, ty, cells[0], cell, b))
    for name in FUNCTIONS:
        if name not in seen:
            problems.append("%s: no row for %s" % (path, name))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bin_dir")
    ap.add_argument("--bounds", default=os.path.join(HERE,
                                                     "accuracy_bounds.json"))
    ap.add_argument("--stride", type=int, default=4093,
                    help="f32 unary sweep: every STRIDE-th bit pattern")
    ap.add_argument("--grid", type=int, default=1024,
                    help="binary ops: GRID x GRID values over the range")
    ap.add_argument("--device", default="local-sync")
    ap.add_argument("--target-backends", default="vmvx",
                    help="backend to compile for (vmvx or llvm-cpu: both "
                    "evaluate numerics.h's functions, so one set of bounds "
                    "holds for both)")
    ap.add_argument("--doc", default=os.path.join(
        HERE, "..", "..", "docs", "website", "docs", "reference",
        "numerics.md"), help="the page whose table must show the bounds")
    ap.add_argument("--only", default="",
                    help="comma-separated type/name keys, e.g. f32/exp")
    ap.add_argument("--write-bounds", action="store_true",
                    help="record the measured errors as the bounds")
    ap.add_argument("--keep-higher", action="store_true",
                    help="with --write-bounds: keep a recorded bound that is "
                    "higher (e.g. one measured by a denser sweep)")
    ap.add_argument("--markdown", action="store_true",
                    help="print the table as Markdown")
    args = ap.parse_args()

    # Our rounding must agree with numpy's float64 -> float32/float16 casts.
    probe = np.concatenate([
        np.random.default_rng(3).standard_normal(100000) *
        np.exp2(np.random.default_rng(4).integers(-160, 140, 100000)),
        [3.4028235677973366e38, 3.4028235677973367e38, 6.5520e4, 6.552e4 - 1,
         2.0**-150, 2.0**-150 * 1.0000001, 2.0**-25, 2.0**-25 * 1.0001]])
    with np.errstate(over="ignore"):
        for ty, dt in (("f32", np.float32), ("f16", np.float16)):
            if not np.array_equal(round_to(probe, FORMATS[ty]),
                                  probe.astype(dt).astype(np.float64)):
                sys.exit("accuracy_test: rounding to %s disagrees with numpy"
                         % ty)

    with open(args.bounds) as f:
        recorded = json.load(f)
    bounds = recorded["bounds"]
    only = set(k for k in args.only.split(",") if k)
    keys = [(ty, name) for ty in ("f32", "f16", "bf16") for name in FUNCTIONS
            if not only or "%s/%s" % (ty, name) in only]

    # Inputs per (type, arity).
    inputs = {}
    for ty in ("f32", "f16", "bf16"):
        inputs[(ty, 1)] = ((f32_unary_inputs(args.stride),) if ty == "f32"
                           else (all16(ty),))
        inputs[(ty, 2)] = binary_inputs(ty, args.grid)

    results = {}
    with tempfile.TemporaryDirectory() as work:
        src = os.path.join(work, "numerics.mlir")
        kmod = os.path.join(work, "numerics.kmod")
        with open(src, "w") as f:
            for ty, name in keys:
                n = inputs[(ty, FUNCTIONS[name][0])][0].size
                f.write(mlir_function(name, ty, n) + "\n")
        run([os.path.join(args.bin_dir, "kiln-compile"),
             "--target-backends=" + args.target_backends, src, "-o", kmod])
        files = {}
        for (ty, arity), xs in inputs.items():
            paths = []
            for i, x in enumerate(xs):
                p = os.path.join(work, "%s_%d_%d.npy" % (ty, arity, i))
                np.save(p, x)
                paths.append(p)
            files[(ty, arity)] = paths
        for ty, name in keys:
            arity, _, ref_fn = FUNCTIONS[name]
            out = os.path.join(work, "out.npy")
            run([os.path.join(args.bin_dir, "kiln-run-module"),
                 "--module=" + kmod, "--device=" + args.device,
                 "--function=" + symbol(name, ty)] +
                ["--input=@" + p for p in files[(ty, arity)]] +
                ["--output=@" + out])
            got = np.load(out)
            results["%s/%s" % (ty, name)] = measure(name, ty,
                                                    inputs[(ty, arity)], got,
                                                    ref_fn)

    failures = []
    if args.markdown:
        print("| function | f32 | f16 | bf16 | f32 worst at x = |")
        print("|---|---|---|---|---|")
        for name in FUNCTIONS:
            cells = []
            for ty in ("f32", "f16", "bf16"):
                r = results.get("%s/%s" % (ty, name))
                cells.append("%.3g" % r["max_ulp"] if r else "")
            r = results.get("f32/" + name)
            at = ", ".join(r["at"]) if r else ""
            print("| %s | %s | `%s` |" % (name, " | ".join(cells), at))
    else:
        print("%-20s %12s %10s  %-30s %-16s %s" %
              ("function", "worst ulp", "bound", "at x", "got", "float64 ref"))
    for key, r in results.items():
        bound = bounds.get(key)
        if not args.markdown:
            print("%-20s %12.4g %10s  %-30s %-16s %s" % (
                key, r["max_ulp"], "-" if bound is None else "%g" % bound,
                ", ".join(r["at"]), r["got"], r["ref"]))
        for p in r["problems"]:
            failures.append("%s: %s" % (key, p))
        if args.write_bounds:
            continue
        if bound is None:
            failures.append("%s: no recorded bound in %s" % (key,
                                                             args.bounds))
        elif not r["max_ulp"] <= bound:
            failures.append(
                "%s: worst error %.4g ulp at x = %s (got %s, float64 %s) "
                "exceeds the recorded bound %g" %
                (key, r["max_ulp"], ", ".join(r["at"]), r["got"], r["ref"],
                 bound))
    if args.write_bounds:
        worst_at = recorded.get("worst_at", {})
        # With --only, the functions not measured keep their bounds.
        new_bounds = dict(bounds) if only else {}
        for k, r in sorted(results.items()):
            b = ceil_bound(r["max_ulp"])
            if args.keep_higher and k in bounds and bounds[k] >= b:
                new_bounds[k] = bounds[k]
                continue
            new_bounds[k] = b
            worst_at[k] = {"x": r["at"], "got": r["got"], "ref": r["ref"],
                           "stride": args.stride, "grid": args.grid}
        recorded["bounds"] = new_bounds
        recorded["worst_at"] = {k: worst_at[k] for k in sorted(new_bounds)}
        with open(args.bounds, "w") as f:
            json.dump(recorded, f, indent=1, sort_keys=True)
            f.write("\n")
        print("accuracy_test: wrote %d bounds to %s" % (len(results),
                                                         args.bounds))
    if not only and not args.write_bounds and os.path.exists(args.doc):
        failures += check_doc(args.doc, bounds)
    if failures:
        print("\n".join("FAIL " + f for f in failures))
        sys.exit(1)
    print("accuracy_test: %d functions within their recorded bounds" %
          len(results))


if __name__ == "__main__":
    main()
