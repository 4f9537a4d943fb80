"""What the cpu backend's Python tests share: failing with a message,
running a tool that must succeed, and compiling MLIR for llvm-cpu with the
generated C kept."""
import os
import subprocess
import sys


def fail(message):
    print("FAILED: " + message)
    sys.exit(1)


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail("%s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def compile_llvm_cpu(bin_dir, work, name, source):
    """Writes |source| to WORK/NAME.mlir, compiles it for llvm-cpu; returns
    the module's path and the generated C of its dispatches."""
    src_path = os.path.join(work, name + ".mlir")
    with open(src_path, "w") as f:
        f.write(source)
    kmod = os.path.join(work, name + ".kmod")
    dump = os.path.join(work, name + "_dump")
    run([os.path.join(bin_dir, "kiln-compile"),
         "--iree-hal-target-backends=llvm-cpu",
         "--iree-hal-dump-executable-sources-to=" + dump, src_path, "-o",
         kmod])
    with open(os.path.join(dump, "dispatches.c")) as f:
        return kmod, f.read()
