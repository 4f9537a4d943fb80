#!/usr/bin/env python3
"""Runs the `shell` code blocks of the website's Building and Guides pages.

The convention (stated in developers/general/testing-guide.md):

* Every fenced block tagged `shell` on the home page (index.md) and the
  pages under building-from-source/ and guides/, and reference/python-api.md,
  is executed: the blocks of one page run in order, in one fresh
  temporary directory holding a copy of the repository's samples/ folder,
  with the build's bin/ and samples/ folders first on PATH (then the
  folder of the interpreter the Python bindings were built for) and the
  build's python/ folder on PYTHONPATH, as the Python guide tells users
  to set it, each block by
  `bash -e -o pipefail` with standard error merged into standard output.
  A block fails the test when it exits non-zero.
* A `text` block that directly follows a `shell` block (nothing but blank
  lines between them) is that block's output. It must match what the block
  printed, after normalization: trailing spaces and runs of spaces are
  ignored, durations (`0.031 ms`, `12 us`, ...) and, on lines that have one,
  every other number (iteration counts, rates) are ignored, and a line
  holding only `...` matches any number of lines, and a `...` word within
  a line (spaces or line ends around it) matches any text.
* Commands that must not be run by the test (installing packages,
  configuring a build, placeholders) go in blocks with another tag, e.g.
  `console` or `text`.

Usage: test_doc_commands.py --build=BUILD_DIR [--docs=DOCS_DIR] [PAGE.md...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECTIONS = ("index.md", "building-from-source", "guides",
            "reference/python-api.md")

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)(?P<attrs>.*)$")


def code_blocks(text):
    """Yields dicts {lang, body, line, follows_prev} for each fenced block;
    follows_prev is True when only blank lines separate it from the
    previous block."""
    lines = text.splitlines()
    i = 0
    last_end = None
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.group("indent"), m.group("fence"), m.group("lang")
        start = i
        body = []
        i += 1
        while i < len(lines):
            line = lines[i]
            stripped = line[len(indent):] if line.startswith(indent) else line.lstrip()
            if stripped.startswith(fence) and not stripped[len(fence):].strip():
                break
            body.append(stripped)
            i += 1
        follows = last_end is not None and all(
            not l.strip() for l in lines[last_end + 1:start])
        yield {"lang": lang, "body": "\n".join(body) + "\n", "line": start + 1,
               "follows_prev": follows}
        last_end = i
        i += 1


TIME = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\s?(?:ns|us|µs|ms|s|sec|seconds)\b")
PERCENT = re.compile(r"\d+(?:\.\d+)?\s?%")
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?[kMGT%]?(?![\w.])")


def normalize(text):
    out = []
    for line in text.splitlines():
        line = line.rstrip()
        if TIME.search(line) or PERCENT.search(line):
            line = TIME.sub("<time>", line)
            line = NUMBER.sub("<n>", line)
        line = re.sub(r"[ \t]+", " ", line)
        out.append(line)
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


def output_matches(expected, actual):
    exp = normalize(expected)
    act = normalize(actual)
    pattern = ""
    for line in exp:
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            # A `...` word (spaces or line ends around it) matches any text.
            parts = re.split(r"(?:(?<=\s)|^)\.\.\.(?=\s|$)", line)
            pattern += "[^\n]*?".join(re.escape(p) for p in parts) + r"\n"
    return re.fullmatch(pattern, "\n".join(act) + "\n" if act else "") is not None


def pages_to_test(docs_dir, explicit):
    if explicit:
        return [os.path.abspath(p) for p in explicit]
    pages = []
    for section in SECTIONS:
        if section.endswith(".md"):
            pages.append(os.path.join(docs_dir, section))
            continue
        for dirpath, _, files in os.walk(os.path.join(docs_dir, section)):
            for name in sorted(files):
                if name.endswith(".md"):
                    pages.append(os.path.join(dirpath, name))
    return sorted(pages)


def python_dirs(build):
    """The folder of the interpreter the bindings were built for
    (KILN_PYTHON_EXECUTABLE in the build's cache), so that `python3` in a
    page is one that has numpy and can load them."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("KILN_PYTHON_EXECUTABLE:"):
                    return [os.path.dirname(line.split("=", 1)[1].strip())]
    except OSError:
        pass
    return []


def run_page(page, build, docs_dir):
    with open(page) as f:
        blocks = list(code_blocks(f.read()))
    rel = os.path.relpath(page, docs_dir)
    work = tempfile.mkdtemp(prefix="kiln-docs-")
    failures = []
    ran = 0
    try:
        shutil.copytree(os.path.join(ROOT, "samples"), os.path.join(work, "samples"))
        env = dict(os.environ)
        env["PATH"] = os.pathsep.join([os.path.join(build, "bin"),
                                       os.path.join(build, "samples")] +
                                      python_dirs(build) +
                                      [env.get("PATH", "")])
        env["PYTHONPATH"] = os.pathsep.join(
            [os.path.join(build, "python")] +
            ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        env.setdefault("LC_ALL", "C.UTF-8")
        for index, block in enumerate(blocks):
            if block["lang"] != "shell":
                continue
            ran += 1
            try:
                proc = subprocess.run(
                    ["bash", "-e", "-o", "pipefail", "-c", block["body"]],
                    cwd=work, env=env, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True, timeout=300)
                output, code = proc.stdout, proc.returncode
            except subprocess.TimeoutExpired as e:
                output, code = (e.stdout or b"").decode(errors="replace"), "timeout"
            where = "%s:%d" % (rel, block["line"])
            if code != 0:
                failures.append("%s: shell block exited %s\n--- block\n%s--- output\n%s" % (
                    where, code, block["body"], output))
                break  # later blocks depend on this one
            nxt = blocks[index + 1] if index + 1 < len(blocks) else None
            if nxt and nxt["lang"] == "text" and nxt["follows_prev"]:
                if not output_matches(nxt["body"], output):
                    failures.append(
                        "%s: output differs from the page's block at line %d\n"
                        "--- expected (page)\n%s--- actual\n%s" % (
                            where, nxt["line"], nxt["body"], output))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ran, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--docs", default=os.path.join(ROOT, "docs", "website", "docs"))
    parser.add_argument("pages", nargs="*")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    if not os.path.isdir(os.path.join(build, "bin")):
        print("test_doc_commands: no %s/bin (build first)" % build, file=sys.stderr)
        return 2
    total, all_failures = 0, []
    for page in pages_to_test(args.docs, args.pages):
        ran, failures = run_page(page, build, args.docs)
        total += ran
        status = "FAILED" if failures else "ok"
        if ran:
            print("test_doc_commands: %-55s %2d shell blocks  %s" % (
                os.path.relpath(page, args.docs), ran, status))
        all_failures += failures
    for f in all_failures:
        print("\n" + f, file=sys.stderr)
    print("test_doc_commands: %d shell blocks run, %d failures" % (total, len(all_failures)))
    return 1 if all_failures else 0


if __name__ == "__main__":
    sys.exit(main())
