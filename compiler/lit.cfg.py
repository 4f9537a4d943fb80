# lit configuration for compiler tests: every .mlir under compiler/ with
# RUN lines: compiler/test/ (the core: IR, dialects, pipeline, codegen) and
# each input's own compiler/input/<input>/test/.
import os
import lit.formats

config.name = "kiln-compiler"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.dirname(config.kiln_opt) if os.path.isabs(
    config.kiln_opt) else None
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py"]
config.substitutions.append(("%kiln-opt", config.kiln_opt))
config.substitutions.append(("%kiln-compile", config.kiln_compile))
config.substitutions.append(("%shared", config.kiln_shared_dir))
# Plain names work too (as in MLIR's RUN lines).
tool_dir = os.path.dirname(config.kiln_opt)
config.environment["PATH"] = os.pathsep.join(
    [tool_dir, os.path.dirname(config.filecheck),
     config.environment.get("PATH", os.environ.get("PATH", ""))])
